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
/// The count is process-wide; read it before and after a block that runs alone.
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
    #endif
  }

  /// Counts `object` as released; called from `deinit`.
  @inlinable
  static func untrack(_ object: AnyObject) {
    #if DEBUG
      counter.decrement()
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
}
