/// A subject that sends each event to the observers subscribed at that moment.
///
/// ```swift
/// let subject = PublishSubject<Int>()
/// subject.onNext(1)  // nobody listens yet
/// _ = subject.subscribe(onNext: { print($0) })
/// subject.onNext(2)
/// // Prints "2"
/// ```
///
/// A late subscriber receives only later events; after a terminal event it receives the terminal
/// event at once.
///
/// Delivery is serialized: if two threads call `on(_:)` at once, or an observer calls it from
/// inside its own `onNext`, the second event is queued and delivered, in order, right after the
/// current one has reached every observer (RxSwift delivers re-entrant events depth-first and
/// concurrent ones concurrently). Observers run on the thread that delivers, never under a lock.
/// An observer whose subscription is disposed while an event is on its way (for instance by
/// another observer of the same event) does not receive it; RxSwift would still deliver it.
///
/// Observers are called in subscription order, always. In RxSwift an observer that subscribes
/// after the first one left takes its slot and is called before all older observers, and past 30
/// observers the order is a dictionary's. Every subject, relay and `share` delivers this way.
///
/// `@unchecked Sendable` when `Element` is: its state lives in a lock-guarded core.
public final class PublishSubject<Element>: Observable<Element>, SubjectType, ObserverType,
  Cancelable
{
  @usableFromInline let core: SubjectCore<Element>
  /// The full path (`#filePath`) of the file that created the subject, for tracing.
  @usableFromInline let tracePath: StaticString

  /// A subject with no observers.
  @inlinable
  public init(file: StaticString = #fileID, line: UInt = #line, filePath: StaticString = #filePath)
  {
    let core = SubjectCore<Element>(policy: .none, name: "PublishSubject")
    self.core = core
    self.tracePath = filePath
    super.init(
      kind: "PublishSubject", upstreams: [], file: file, line: line,
      disposableReleasesObserver: true
    ) { core.subscribe($0) }
  }

  /// Disposes the core: that releases the observers still subscribed, whose subscriptions hold
  /// the core (see `SubjectSubscription`).
  deinit { core.dispose() }

  /// This subject as a tracer sees it, with the full path of the file that declared it, from
  /// which a trace names it by its property (`CartStore.added`).
  override public var traceNode: TraceNode { super.traceNode.declared(in: "\(tracePath)") }

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
  public func asObserver() -> PublishSubject<Element> { self }

  /// Releases every observer and the buffered elements; later subscribers receive
  /// `RxError.disposed`.
  public func dispose() { core.dispose() }
}

// `@unchecked Sendable`: every mutable field lives in `core`, a `SubjectCore` whose state is
// guarded by its lock; the superclass's fields are immutable.
extension PublishSubject: @unchecked Sendable where Element: Sendable {}
