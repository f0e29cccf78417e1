// Stand-in for RxSwift's `Disposable`, `Cancelable`, `Disposables` and `DisposeBag`. RxSwift's
// current sources declare `Disposable: Sendable`; so does the stand-in.

import Foundation

/// A resource that can be released: a subscription.
public protocol Disposable: Sendable {
  /// Releases the resource.
  func dispose()
}

/// A disposable that can say whether it was disposed.
public protocol Cancelable: Disposable {
  /// Whether `dispose()` was called.
  var isDisposed: Bool { get }
}

/// Factories of disposables.
public struct Disposables {
  private init() {}

  /// A disposable that does nothing.
  public static func create() -> Disposable { AnonymousDisposable(nil) }

  /// A disposable that runs `dispose` once, on the first `dispose()`.
  public static func create(with dispose: @escaping () -> Void) -> Cancelable {
    AnonymousDisposable(dispose)
  }

  /// A disposable that disposes both.
  public static func create(_ disposable1: Disposable, _ disposable2: Disposable) -> Disposable {
    AnonymousDisposable {
      disposable1.dispose()
      disposable2.dispose()
    }
  }
}

/// Runs its action once. `@unchecked Sendable`: the action is taken under `lock`.
final class AnonymousDisposable: Cancelable, @unchecked Sendable {
  private let lock = NSLock()
  private var action: (() -> Void)?
  private var disposed = false

  init(_ action: (() -> Void)?) {
    self.action = action
  }

  var isDisposed: Bool {
    lock.lock()
    defer { lock.unlock() }
    return disposed
  }

  func dispose() {
    lock.lock()
    let action = self.action
    self.action = nil
    disposed = true
    lock.unlock()
    action?()
  }
}

/// Disposes what it holds when it is deinitialized.
public final class DisposeBag: @unchecked Sendable {
  private let lock = NSLock()
  private var disposables: [Disposable] = []

  public init() {}

  func insert(_ disposable: Disposable) {
    lock.lock()
    disposables.append(disposable)
    lock.unlock()
  }

  deinit {
    for disposable in disposables { disposable.dispose() }
  }
}

extension Disposable {
  /// Adds the disposable to `bag`.
  public func disposed(by bag: DisposeBag) {
    bag.insert(self)
  }
}
