/// Factory methods for common disposables.
///
/// ```swift
/// let disposable = Disposables.create { print("released") }
/// disposable.dispose()
/// // Prints "released"
/// ```
public enum Disposables {
  /// A disposable that does nothing.
  @inlinable
  public static func create() -> any Disposable { NopDisposable.instance }

  /// A disposable that runs `dispose` once, on the first call to `dispose()`.
  public static func create(with dispose: @escaping @Sendable () -> Void) -> any Cancelable {
    AnonymousDisposable(dispose)
  }

  /// A disposable that disposes both arguments.
  public static func create(_ disposable1: any Disposable, _ disposable2: any Disposable)
    -> any Cancelable
  {
    CompositeDisposable(disposables: [disposable1, disposable2])
  }

  /// A disposable that disposes all three arguments.
  public static func create(
    _ disposable1: any Disposable, _ disposable2: any Disposable, _ disposable3: any Disposable
  ) -> any Cancelable {
    CompositeDisposable(disposables: [disposable1, disposable2, disposable3])
  }

  /// A disposable that disposes all arguments.
  public static func create(
    _ disposable1: any Disposable, _ disposable2: any Disposable, _ disposable3: any Disposable,
    _ disposables: any Disposable...
  ) -> any Cancelable {
    CompositeDisposable(disposables: [disposable1, disposable2, disposable3] + disposables)
  }

  /// A disposable that disposes every element of `disposables`.
  public static func create(_ disposables: [any Disposable]) -> any Cancelable {
    CompositeDisposable(disposables: disposables)
  }
}

/// The disposable that does nothing.
@usableFromInline
final class NopDisposable: Disposable {
  @usableFromInline static let instance: any Disposable = NopDisposable()

  @inlinable
  init() {}

  @inlinable
  func dispose() {}
}

/// Runs a closure on the first `dispose()`.
final class AnonymousDisposable: Cancelable {
  private let state: Locked<(@Sendable () -> Void)?>

  init(_ action: @escaping @Sendable () -> Void) {
    state = Locked(action)
    Resources.track(self)
  }

  deinit { Resources.untrack(self) }

  var isDisposed: Bool { state.withLock { $0 == nil } }

  func dispose() {
    let action = state.withLock { state -> (@Sendable () -> Void)? in
      defer { state = nil }
      return state
    }
    action?()
  }
}

/// A disposable that records whether it was disposed.
public final class BooleanDisposable: Cancelable {
  private let flag: Locked<Void>

  /// A disposable that reports `isDisposed`, initially `isDisposed`.
  public init(isDisposed: Bool = false) {
    flag = Locked(())
    if isDisposed { _ = flag.fetchOrWord(1) }
  }

  /// `true` once disposed.
  public var isDisposed: Bool { flag.loadWord() != 0 }

  /// Marks the disposable as disposed.
  public func dispose() { _ = flag.fetchOrWord(1) }
}
