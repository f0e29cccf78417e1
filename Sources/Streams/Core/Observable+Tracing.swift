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
    let end = TracedNodeEnd(recorder)
    let traced = TracedNodeDisposable(end)
    // Only a node whose disposable lets go of its observer when it ends reports its end from its
    // observer; any other is disposed by its subscriber when it ends.
    let ender = disposableReleasesObserver ? end : nil
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
/// event has been delivered and its subscription has returned, whichever is later
/// (``TracedNodeEnd``).
///
/// `@unchecked Sendable`: `disposable` is written once, before `end` publishes the subscribed
/// bit, and read only after seeing it.
@usableFromInline
final class TracedNodeDisposable: Cancelable, @unchecked Sendable {
  @usableFromInline let end: TracedNodeEnd
  @exclusivity(unchecked) @usableFromInline var disposable: (any Disposable)?

  @usableFromInline
  init(_ end: TracedNodeEnd) {
    self.end = end
  }

  /// The releasing subscription at the bottom of this node's disposable, when the node hands one
  /// on (an element-wise stage over a subject, see `stage`), as it would be untraced.
  @usableFromInline
  var handedOnSubscription: AnyObject? {
    guard end.isSubscribed, let disposable else { return nil }
    return ReleasingSubscriptions.handedOn(disposable)
  }

  @usableFromInline
  var isDisposed: Bool { end.isDisposed }

  /// The node's subscription returned `disposable`.
  @usableFromInline
  func subscribed(_ disposable: any Disposable) {
    self.disposable = disposable
    if end.subscribed() { disposable.dispose() }
  }

  @usableFromInline
  func dispose() {
    guard end.disposed() else { return }
    disposable?.dispose()
  }
}

/// Where a traced node's subscription stands (subscribed, terminated, reported, disposed, one
/// bit each) and the tracer's record of it, which hears of the end once.
///
/// The observer a releasing node is given holds this, not the ``TracedNodeDisposable``: the
/// node's disposable holds its observer until it ends, and a disposable that held the observer
/// that holds it would keep both alive once dropped (a subject released without a terminal
/// event, its subscriber's disposable dropped), where untraced both go.
@usableFromInline
final class TracedNodeEnd: Sendable {
  @usableFromInline let recorder: any TraceSubscription
  @usableFromInline let state = Locked(())

  @usableFromInline static var subscribedBit: Int { 1 }
  @usableFromInline static var terminatedBit: Int { 2 }
  @usableFromInline static var reportedBit: Int { 4 }
  @usableFromInline static var disposedBit: Int { 8 }

  @usableFromInline
  init(_ recorder: any TraceSubscription) {
    self.recorder = recorder
  }

  @usableFromInline
  var isSubscribed: Bool { state.loadWord() & Self.subscribedBit != 0 }

  @usableFromInline
  var isDisposed: Bool { state.loadWord() & Self.disposedBit != 0 }

  /// The node's subscription returned; `true` when it was disposed before (the caller disposes
  /// what the subscription returned). Reports the end of a node that already terminated.
  @usableFromInline
  func subscribed() -> Bool {
    let previous = state.fetchOrWord(Self.subscribedBit)
    if previous & Self.disposedBit != 0 { return true }
    if previous & Self.terminatedBit != 0 { reportEnd() }
    return false
  }

  /// The node, whose disposable lets go of its observer when it ends, delivered its terminal
  /// event.
  @usableFromInline
  func terminalDelivered() {
    let previous = state.fetchOrWord(Self.terminatedBit)
    if previous & Self.subscribedBit != 0 { reportEnd() }
  }

  /// Reports the end and marks the node disposed; `true` for the first disposal after the
  /// subscription returned (the caller disposes what it returned).
  @usableFromInline
  func disposed() -> Bool {
    reportEnd()
    let previous = state.fetchOrWord(Self.disposedBit)
    return previous & Self.disposedBit == 0 && previous & Self.subscribedBit != 0
  }

  private func reportEnd() {
    guard state.fetchOrWord(Self.reportedBit) & Self.reportedBit == 0 else { return }
    recorder.disposed()
  }
}
