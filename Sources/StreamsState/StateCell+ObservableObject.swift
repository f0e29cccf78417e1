#if canImport(Combine)
  import Combine

  // Combine exists only on Apple platforms: this file is compiled there and has never been built
  // or run by the tests, which run on Linux. It is kept to what SwiftUI needs before iOS 17: a
  // publisher that sends before every change.

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
