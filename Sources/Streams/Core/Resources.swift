/// Live-object accounting: the number of Streams objects (subscriptions, subjects, disposables)
/// currently alive, counted in debug builds of Streams (RxSwift needs the `TRACE_RESOURCES` flag
/// for its counterpart).
///
/// ```swift
/// let before = Resources.total
/// do {
///   let bag = DisposeBag()
///   Observable.just(1).subscribe().disposed(by: bag)
/// }
/// assert(Resources.total == before)
/// ```
///
/// The count is process-wide; read it before and after a block that runs alone. A test that runs
/// beside others (`swift test` runs tests in parallel) counts its own objects with a
/// ``Scope`` instead.
///
/// A release build of Streams does not count (``isCounting`` is `false` and ``total`` stays 0):
/// the counter is one atomic word that every thread would increment and decrement on every
/// subscription, two contended read-modify-writes per object in production code. `swift test`
/// and debug app builds compile Streams in debug, so leak checks see every object there.
public enum Resources {
  @usableFromInline static let counter = AtomicCounter()

  /// Whether this build of Streams counts live objects (a debug build).
  public static var isCounting: Bool {
    #if DEBUG
      true
    #else
      false
    #endif
  }

  /// The number of live Streams objects; always 0 where ``isCounting`` is `false`.
  public static var total: Int { counter.value }

  /// Counts `object` as alive; called from initialisers.
  @inlinable
  static func track(_ object: AnyObject) {
    #if DEBUG
      counter.increment()
      if Scope.made.value != 0 { Scope.track(object) }
    #endif
  }

  /// Counts `object` as released; called from `deinit`.
  @inlinable
  static func untrack(_ object: AnyObject) {
    #if DEBUG
      counter.decrement()
      if Scope.registered.value != 0 { Scope.untrack(object) }
    #endif
  }
}

/// Global hooks, as in RxSwift.
public enum Hooks {
  /// Receives an error that reached a subscription without an `onError` handler.
  public typealias DefaultErrorHandler =
    @Sendable (_ subscriptionCallStack: [String], _ error: any Error)
    -> Void

  private static let handler = Locked<DefaultErrorHandler>({ _, error in
    print("Unhandled error happened: \(error)")
  })

  /// Called for an error that reaches a subscription without an `onError` handler. The default
  /// prints it; tests may install one that records it.
  public static var defaultErrorHandler: DefaultErrorHandler {
    get { handler.withLock { $0 } }
    set {
      let previous = handler.withLock { current -> DefaultErrorHandler in
        defer { current = newValue }
        return current
      }
      // Release the previous handler (and what it captured) outside the lock.
      withExtendedLifetime(previous) {}
    }
  }

  @usableFromInline
  static func reportUnhandled(_ error: any Error) {
    let current = defaultErrorHandler
    current([], error)
  }

  /// Captures a call stack for ``recordCallStackOnError``, as RxSwift's hook.
  public typealias CustomCaptureSubscriptionCallstack = @Sendable () -> [String]

  /// `1` while ``recordCallStackOnError`` is on: one atomic load per subscription that has no
  /// error handler.
  @usableFromInline static let recordsCallStack = AtomicCounter()

  private static let capture = Locked<CustomCaptureSubscriptionCallstack>({ [] })

  /// When `true`, a subscription without an error handler (`subscribe(onNext:)` with no
  /// `onError`, `Single.subscribe(onSuccess:)` with no `onFailure`, ...) captures a call stack with
  /// ``customCaptureSubscriptionCallstack`` when it is made, and an error that reaches it is
  /// reported to ``defaultErrorHandler`` with that stack. `false` by default, as in RxSwift.
  ///
  /// ```swift
  /// Hooks.recordCallStackOnError = true
  /// Hooks.customCaptureSubscriptionCallstack = { Thread.callStackSymbols }  // app code, Foundation
  /// Hooks.defaultErrorHandler = { stack, error in print(error, stack.joined(separator: "\n")) }
  /// ```
  ///
  /// The core links FoundationEssentials only, which has no `Thread`, so the default capture
  /// returns `[]` (RxSwift's returns `Thread.callStackSymbols` in debug builds): set ``customCaptureSubscriptionCallstack`` to get
  /// a stack.
  public static var recordCallStackOnError: Bool {
    get { recordsCallStack.value != 0 }
    set { recordsCallStack.store(newValue ? 1 : 0) }
  }

  /// Captures the call stack of a subscription while ``recordCallStackOnError`` is on.
  ///
  /// ```swift
  /// Hooks.customCaptureSubscriptionCallstack = { Thread.callStackSymbols }
  /// ```
  ///
  /// The default returns `[]` (the core has no `Thread` to read one from). Called on the
  /// subscribing thread, once per subscription without an error handler, and only while
  /// ``recordCallStackOnError`` is on.
  public static var customCaptureSubscriptionCallstack: CustomCaptureSubscriptionCallstack {
    get { capture.withLock { $0 } }
    set {
      let previous = capture.withLock { current -> CustomCaptureSubscriptionCallstack in
        defer { current = newValue }
        return current
      }
      withExtendedLifetime(previous) {}
    }
  }

  /// The error handler of a subscription made without one: `nil` (report through
  /// ``reportUnhandled(_:)``) unless ``recordCallStackOnError`` is on, in which case the call
  /// stack is captured now and reported with the error.
  @inlinable
  static func unhandledErrorReporter() -> ((any Error) -> Void)? {
    guard recordsCallStack.value != 0 else { return nil }
    return callStackReporter()
  }

  @usableFromInline
  static func callStackReporter() -> (any Error) -> Void {
    let stack = customCaptureSubscriptionCallstack()
    return { error in
      let current = defaultErrorHandler
      current(stack, error)
    }
  }
}
