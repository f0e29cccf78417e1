/// A subject that holds a current value and sends it to each new subscriber.
///
/// ```swift
/// let subject = BehaviorSubject(value: 1)
/// _ = subject.subscribe(onNext: { print($0) })
/// subject.onNext(2)
/// // Prints "1", "2"
/// ```
///
/// After a terminal event a new subscriber receives only the terminal event.
///
/// Delivery is serialized: if two threads call `on(_:)` at once, or an observer calls it from
/// inside its own `onNext`, the second event is queued and delivered, in order, right after the
/// current one has reached every observer (RxSwift delivers re-entrant events depth-first and
/// concurrent ones concurrently). Observers run on the thread that delivers, never under a lock.
/// A new subscriber receives the current value inside `subscribe`, on its own thread, as in
/// RxSwift, also when it subscribes from inside a delivery or while another thread delivers; the
/// events accepted after that value follow it, in order.
///
/// `@unchecked Sendable` when `Element` is: its state lives in a lock-guarded core.
public final class BehaviorSubject<Element>: Observable<Element>, SubjectType, ObserverType,
  Cancelable
{
  @usableFromInline let core: SubjectCore<Element>
  /// The full path (`#filePath`) of the file that created the subject, for tracing.
  @usableFromInline let tracePath: StaticString

  /// A subject whose current value is `value`.
  @inlinable
  public init(
    value: Element, file: StaticString = #fileID, line: UInt = #line,
    filePath: StaticString = #filePath
  ) {
    let core = SubjectCore<Element>(policy: .latest, name: "BehaviorSubject", initial: value)
    self.core = core
    self.tracePath = filePath
    super.init(
      kind: "BehaviorSubject", upstreams: [], file: file, line: line,
      disposableReleasesObserver: true
    ) {
      core.subscribe($0)
    }
  }

  /// Disposes the core: that releases the observers still subscribed, whose subscriptions hold
  /// the core (see `SubjectSubscription`).
  deinit { core.dispose() }

  /// This subject as a tracer sees it, with the full path of the file that declared it, from
  /// which a trace names it by its property (`CartStore.added`).
  override public var traceNode: TraceNode { super.traceNode.declared(in: "\(tracePath)") }

  /// The current value; throws the error the subject failed with, or `RxError.disposed`.
  public func value() throws -> Element { try core.latest() }

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
  public func asObserver() -> BehaviorSubject<Element> { self }

  /// Releases every observer and the buffered elements; later subscribers receive
  /// `RxError.disposed`.
  public func dispose() { core.dispose() }
}

// `@unchecked Sendable`: every mutable field lives in `core`, a `SubjectCore` whose state is
// guarded by its lock; the superclass's fields are immutable.
extension BehaviorSubject: @unchecked Sendable where Element: Sendable {}
