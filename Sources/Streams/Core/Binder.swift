/// An observer that binds elements to a target object on a scheduler (the main thread by default),
/// as RxSwift's `Binder`: it holds the target weakly, ignores completion, and treats an error as a
/// programming error.
///
/// ```swift
/// final class TitleView { var title = "" }
/// let view = TitleView()
/// let titleBinder = Binder(view, scheduler: CurrentThreadScheduler.instance) { view, title in
///   view.title = title
/// }
/// _ = Observable.just("Hello").bind(to: titleBinder)
/// print(view.title)
/// // Prints "Hello"
/// ```
///
/// `.next` runs `binding` on `scheduler` while the target is alive; `.completed` does nothing; an
/// `.error` stops the program with a message naming the misuse (RxSwift stops debug builds only).
/// Elements cross to `scheduler`, so they are `Sendable`.
public struct Binder<Value: Sendable>: ObserverType {
  private let core: BinderCore<Value>

  /// A binder that runs `binding(target, element)` on `scheduler` for each element.
  public init<Target: AnyObject>(
    _ target: Target, scheduler: any ImmediateSchedulerType = MainScheduler.instance,
    binding: @escaping (Target, Value) -> Void
  ) {
    core = BinderCore(scheduler: scheduler) { [weak target] value in
      guard let target else { return }
      binding(target, value)
    }
  }

  /// Binds `.next` elements; see the type's description for completion and errors.
  public func on(_ event: Event<Value>) {
    switch event {
    case .next(let element): core.bind(element)
    case .error(let error): bindingError(error)
    case .completed: break
    }
  }

  /// The binder as an `AnyObserver`.
  public func asObserver() -> AnyObserver<Value> { AnyObserver(eventHandler: on) }
}

/// Runs a binding on its scheduler.
///
/// `@unchecked Sendable`: both fields are immutable. The binding is only ever called from an
/// action scheduled on `scheduler`, the thread the binder was declared for (the main thread by
/// default), which is the contract of RxSwift's `Binder` that this keeps.
private final class BinderCore<Value: Sendable>: @unchecked Sendable {
  let scheduler: any ImmediateSchedulerType
  let binding: (Value) -> Void

  init(scheduler: any ImmediateSchedulerType, binding: @escaping (Value) -> Void) {
    self.scheduler = scheduler
    self.binding = binding
  }

  func bind(_ value: Value) {
    _ = scheduler.schedule(value) { [self] value in
      binding(value)
      return Disposables.create()
    }
  }
}
