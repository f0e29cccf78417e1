/// A subject that replays up to `bufferSize` latest elements to each new subscriber.
///
/// ```swift
/// let subject = ReplaySubject<Int>.create(bufferSize: 2)
/// subject.onNext(1); subject.onNext(2); subject.onNext(3)
/// _ = subject.subscribe(onNext: { print($0) })
/// // Prints "2", "3"
/// ```
///
/// After a terminal event a new subscriber receives the buffer and then the terminal event.
///
/// Delivery is serialized: if two threads call `on(_:)` at once, or an observer calls it from
/// inside its own `onNext`, the second event is queued and delivered, in order, right after the
/// current one has reached every observer (RxSwift delivers re-entrant events depth-first and
/// concurrent ones concurrently). Observers run on the thread that delivers, never under a lock.
/// A new subscriber receives the buffer inside `subscribe`, on its own thread, as in RxSwift,
/// also when it subscribes from inside a delivery or while another thread delivers; the events
/// accepted after the buffer follow it, in order.
///
/// `@unchecked Sendable` when `Element` is: its state lives in a lock-guarded core.
public final class ReplaySubject<Element>: Observable<Element>, SubjectType, ObserverType,
  Cancelable
{
  @usableFromInline let core: SubjectCore<Element>
  /// The full path (`#filePath`) of the file that created the subject, for tracing.
  @usableFromInline let tracePath: StaticString

  @inlinable
  init(bufferSize: Int, file: StaticString, line: UInt, filePath: StaticString) {
    if bufferSize < 0 {
      streamsStop(
        "ReplaySubject.create(bufferSize:) needs a buffer size of 0 or more, got \(bufferSize)")
    }
    let core = SubjectCore<Element>(policy: .buffer(bufferSize), name: "ReplaySubject")
    self.core = core
    self.tracePath = filePath
    super.init(
      kind: "ReplaySubject", upstreams: [], file: file, line: line,
      disposableReleasesObserver: true
    ) { core.subscribe($0) }
  }

  /// Disposes the core: that releases the observers still subscribed, whose subscriptions hold
  /// the core (see `SubjectSubscription`).
  deinit { core.dispose() }

  /// This subject as a tracer sees it, with the full path of the file that declared it, from
  /// which a trace names it by its property (`CartStore.added`).
  override public var traceNode: TraceNode { super.traceNode.declared(in: "\(tracePath)") }

  /// A subject replaying up to `bufferSize` elements. A negative size is a programming error.
  @inlinable
  public static func create(
    bufferSize: Int, file: StaticString = #fileID, line: UInt = #line,
    filePath: StaticString = #filePath
  ) -> ReplaySubject<Element> {
    ReplaySubject(bufferSize: bufferSize, file: file, line: line, filePath: filePath)
  }

  /// A subject replaying every element it has received.
  @inlinable
  public static func createUnbounded(
    file: StaticString = #fileID, line: UInt = #line, filePath: StaticString = #filePath
  ) -> ReplaySubject<Element> {
    ReplaySubject(bufferSize: Int.max, file: file, line: line, filePath: filePath)
  }

  /// `true` while at least one observer is subscribed.
  public var hasObservers: Bool { core.hasObservers }

  /// `true` once disposed.
  public var isDisposed: Bool { core.isDisposed }

  /// Sends `event` to every subscribed observer.
  @inlinable
  public func on(_ event: Event<Element>) {
    if Tracing.isInstalled {
      Tracing.send(event, into: self) { core.on(event) }
      return
    }
    core.on(event)
  }

  /// Returns `self`.
  public func asObserver() -> ReplaySubject<Element> { self }

  /// Releases every observer and the buffered elements; later subscribers receive
  /// `RxError.disposed`.
  public func dispose() { core.dispose() }
}

// `@unchecked Sendable`: every mutable field lives in `core`, a `SubjectCore` whose state is
// guarded by its lock; the superclass's fields are immutable.
extension ReplaySubject: @unchecked Sendable where Element: Sendable {}
