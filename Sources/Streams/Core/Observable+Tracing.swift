extension Observable {
  /// Runs one subscription with the installed tracer watching: every event this node delivers
  /// goes through the tracer, which hears of the subscription's start and of its end.
  ///
  /// The teardown is the one an untraced subscription takes: the node's own disposable, wrapped
  /// so that disposing it reports first (``TracedNodeDisposable``).
  @inlinable
  final func runTraced(_ observer: AnyObserver<Element>) -> any Disposable {
    guard let tracer = Tracing.current, let recorder = tracer.subscription(to: traceNode) else {
      return produce(observer)
    }
    let traced = TracedNodeDisposable(recorder)
    // Only a node whose disposable lets go of its observer when it ends keeps `traced` in its
    // observer: for any other, the observer (held by the node's sink) would keep `traced`, and
    // `traced` the sink, alive after disposal.
    let ender = disposableReleasesObserver ? traced : nil
    recorder.subscribing()
    let disposable: any Disposable
    if let direct = recorder as? any DirectTraceSubscription {
      disposable = produce(
        AnyObserver { event in
          if case .next(let element) = event, let words = TraceValue.plainWords(of: element) {
            direct.beginPlain(Element.self, words.0, words.1)
          } else {
            direct.begin(event.traceKind, value: { event.traceValue() })
          }
          observer.on(event)
          Tracing.endDirect()
          if event.isStopEvent { ender?.terminalDelivered() }
        })
    } else {
      disposable = produce(
        AnyObserver { event in
          recorder.deliver(event.traceKind, value: { event.traceValue() }) { observer.on(event) }
          if event.isStopEvent { ender?.terminalDelivered() }
        })
    }
    recorder.subscribed()
    traced.subscribed(disposable)
    return traced
  }
}

/// The disposable of a traced node's subscription: disposing it tells the tracer, once, before
/// the disposal travels upstream, so that a trace reads in the order disposal travels:
/// downstream first.
///
/// A node whose disposable lets go of its observer when the subscription ends
/// (``Observable/disposableReleasesObserver``, a subject's subscription) is not disposed when it
/// ends by a terminal event: its subscriber holds that disposable as it is, with no sink of
/// Streams' that disposes it then, traced or not. Such a node reports its end once its terminal
/// event has been delivered and its subscription has returned, whichever is later.
///
/// `@unchecked Sendable`: `state` is only accessed atomically; `disposable` is written once,
/// before the `subscribedBit` is published, and read only after seeing it.
@usableFromInline
final class TracedNodeDisposable: Cancelable, @unchecked Sendable {
  @usableFromInline let recorder: any TraceSubscription
  @usableFromInline let state = Locked(())
  @exclusivity(unchecked) @usableFromInline var disposable: (any Disposable)?

  @usableFromInline static var subscribedBit: Int { 1 }
  @usableFromInline static var terminatedBit: Int { 2 }
  @usableFromInline static var reportedBit: Int { 4 }
  @usableFromInline static var disposedBit: Int { 8 }

  @usableFromInline
  init(_ recorder: any TraceSubscription) {
    self.recorder = recorder
  }

  /// The subject subscription at the bottom of this node's disposable, when the node hands one
  /// on (an element-wise stage over a subject, see `stage`), as it would be untraced.
  @usableFromInline
  var subjectSubscription: SubjectSubscription? {
    guard state.loadWord() & Self.subscribedBit != 0, let disposable else { return nil }
    return SubjectSubscription.handedOn(disposable)
  }

  @usableFromInline
  var isDisposed: Bool { state.loadWord() & Self.disposedBit != 0 }

  /// The node's subscription returned `disposable`.
  @usableFromInline
  func subscribed(_ disposable: any Disposable) {
    self.disposable = disposable
    let previous = state.fetchOrWord(Self.subscribedBit)
    if previous & Self.disposedBit != 0 {
      disposable.dispose()
    } else if previous & Self.terminatedBit != 0 {
      reportEnd()
    }
  }

  /// The node, whose disposable lets go of its observer when it ends, delivered its terminal
  /// event.
  @usableFromInline
  func terminalDelivered() {
    let previous = state.fetchOrWord(Self.terminatedBit)
    if previous & Self.subscribedBit != 0 { reportEnd() }
  }

  @usableFromInline
  func dispose() {
    reportEnd()
    let previous = state.fetchOrWord(Self.disposedBit)
    guard previous & Self.disposedBit == 0, previous & Self.subscribedBit != 0 else { return }
    disposable?.dispose()
  }

  private func reportEnd() {
    guard state.fetchOrWord(Self.reportedBit) & Self.reportedBit == 0 else { return }
    recorder.disposed()
  }
}

extension SubjectSubscription {
  /// The subject subscription `disposable` is, or, traced, the one its node hands on.
  @inlinable
  static func handedOn(_ disposable: any Disposable) -> SubjectSubscription? {
    if let subscription = disposable as? SubjectSubscription { return subscription }
    guard Tracing.isInstalled, let traced = disposable as? TracedNodeDisposable else { return nil }
    return traced.subjectSubscription
  }
}
