import StreamsShims

/// A disposable whose underlying disposable is set exactly once, possibly after it was disposed.
///
/// ```swift
/// let single = SingleAssignmentDisposable()
/// single.dispose()
/// single.setDisposable(Disposables.create { print("disposed on set") })
/// // Prints "disposed on set"
/// ```
///
/// Disposing it disposes the underlying disposable and lets go of it; setting it after disposal
/// disposes the argument at once and keeps nothing. Setting it twice is a programming error and
/// stops the program with a message that says so.
///
/// It is also the handle that `subscribe(onNext:)`, `subscribe(_:)` and `bind(to:)` return when
/// the subscription's own disposable could keep the observer alive: it holds the subscription
/// until it ends (by `dispose()` or by a terminal event), then holds nothing, so that a handle kept
/// in a `DisposeBag` does not keep the closures of an ended subscription alive.
///
/// One allocation and no lock: the same lifecycle word and slot hand-over as the sinks
/// (`SinkLifecycle`).
///
/// `@unchecked Sendable`: `flags` is only accessed atomically after `init`; `upstreamSlot` is written by
/// `setDisposable` before the set bit is published and afterwards touched by exactly one thread,
/// the one that `SingleUpstreamLifecycle` says owns it.
public final class SingleAssignmentDisposable: SingleUpstreamLifecycle, Cancelable,
  @unchecked Sendable
{
  /// The lifecycle word: the first stored property (`SinkLifecycle`).
  @usableFromInline var flags: Int
  @exclusivity(unchecked) @usableFromInline var upstreamSlot: (any Disposable)?

  /// An empty disposable; call ``setDisposable(_:)`` once.
  @inlinable
  public init() {
    flags = 0
    upstreamSlot = nil
  }

  /// `true` once disposed.
  public var isDisposed: Bool {
    streams_atomic_load(flagsAddress) & SinkLifecycleBits.disposed != 0
  }

  /// Sets the underlying disposable; if this was already disposed, disposes `disposable` at once.
  @inlinable
  public func setDisposable(_ disposable: any Disposable) {
    setUpstream(
      disposable,
      ifSetTwice: "SingleAssignmentDisposable.setDisposable called twice: a single-assignment "
        + "disposable takes exactly one disposable")
  }

  /// Disposes the underlying disposable, now or when it is set, and lets go of it.
  @inlinable
  public func dispose() {
    disposeLifecycle()
  }
}
