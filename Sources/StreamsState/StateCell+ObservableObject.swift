#if canImport(Combine) || STREAMS_OPENCOMBINE
  #if canImport(Combine)
    import Combine
  #else
    import OpenCombine
  #endif

  // Combine exists only on Apple platforms. On Linux, the package `Tests/OpenCombineState` builds
  // this very file (and the rest of StreamsState) against OpenCombine, whose `ObservableObject`
  // and `ObservableObjectPublisher` have Combine's API, and tests it there. It is kept to what
  // SwiftUI needs before iOS 17: a publisher that sends before every change.

  extension StateCell: @MainActor ObservableObject {
    /// Sends before every change of ``value`` (for `@ObservedObject` and `@StateObject` on
    /// iOS 15 and 16); made on first use.
    public var objectWillChange: ObservableObjectPublisher {
      if let publisher = willChangePublisher {
        return unsafeDowncast(publisher, to: ObservableObjectPublisher.self)
      }
      let publisher = ObservableObjectPublisher()
      willChangePublisher = publisher
      return publisher
    }

    @usableFromInline
    func sendObjectWillChange() {
      guard let publisher = willChangePublisher else { return }
      unsafeDowncast(publisher, to: ObservableObjectPublisher.self).send()
    }
  }
#else
  extension StateCell {
    /// Without Combine there is no `objectWillChange` to send.
    @usableFromInline
    func sendObjectWillChange() {}
  }
#endif
