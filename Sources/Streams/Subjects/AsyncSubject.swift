/// A subject that emits only its last element, and only when it completes.
///
/// ```swift
/// let subject = AsyncSubject<Int>()
/// _ = subject.subscribe(onNext: { print($0) })
/// subject.onNext(1); subject.onNext(2); subject.onCompleted()
/// // Prints "2"
/// ```
///
/// An error is forwarded without the last element; a subscriber after completion receives the
/// last element and completion.
///
/// Delivery is serialized: if two threads call `on(_:)` at once, or an observer calls it from
/// inside its own `onNext`, the second event is queued and delivered, in order, right after the
/// current one has reached every observer (RxSwift delivers re-entrant events depth-first and
/// concurrent ones concurrently). Observers run on the thread that delivers, never under a lock.
///
/// `@unchecked Sendable` when `Element` is: its state lives in a lock-guarded core.
public final class AsyncSubject<Element>: Observable<Element>, SubjectType, ObserverType, Cancelable
{
  @usableFromInline let core: SubjectCore<Element>
  /// The full path (`#filePath`) of the file that created the subject, for tracing.
  @usableFromInline let tracePath: StaticString

  /// An empty subject.
  @inlinable
  public init(file: StaticString = #fileID, line: UInt = #line, filePath: StaticString = #filePath)
  {
    let core = SubjectCore<Element>(policy: .last, name: "AsyncSubject")
    self.core = core
    self.tracePath = filePath
    super.init(
      kind: "AsyncSubject", upstreams: [], file: file, line: line,
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
  public func asObserver() -> AsyncSubject<Element> { self }

  /// Releases every observer and the buffered elements; later subscribers receive
  /// `RxError.disposed`.
  public func dispose() { core.dispose() }
}

// `@unchecked Sendable`: every mutable field lives in `core`, a `SubjectCore` whose state is
// guarded by its lock; the superclass's fields are immutable.
extension AsyncSubject: @unchecked Sendable where Element: Sendable {}
