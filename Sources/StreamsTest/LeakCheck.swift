import Streams

/// Counts the Streams objects (subscriptions, sinks, subjects, disposables) that a block of code
/// makes and leaves alive, with a ``/Streams/Resources/Scope`` of its own.
///
/// ```swift
/// let (_, leaked) = LeakCheck.measure {
///   let subject = PublishSubject<Int>()
///   let subscription = subject.subscribe(onNext: { print($0) })
///   subject.onNext(1)
///   subscription.dispose()
/// }
/// print(leaked)
/// // Prints "1" then "0"
/// ```
///
/// Only the block's own objects count, so leak checks run beside other tests (`swift test` runs
/// tests in parallel). The objects count that the block makes on its own thread or task and in
/// the tasks it creates; a thread it starts itself counts only where it binds
/// ``/Streams/Resources/Scope/current``, and objects that a scheduler's queue makes do not count.
/// Work still queued on real schedulers releases its objects later: finish or dispose it inside
/// the block. The Swift Testing and XCTest front ends are
/// ``expectNoLeaks(_:sourceLocation:_:)-26ins`` and `XCTAssertNoLeaks(_:file:line:_:)`.
public enum LeakCheck {
  /// Runs `body` and returns its result with the number of Streams objects it made that are
  /// still alive: 0 when everything `body` made was released.
  ///
  /// Rethrows what `body` throws (then nothing is measured).
  public static func measure<Result>(_ body: () throws -> Result) rethrows -> (
    result: Result, leaked: Int
  ) {
    requireCounting()
    let scope = Resources.Scope()
    let result = try scope.run(body)
    return (result, scope.live)
  }

  /// The `async` form of ``measure(_:)``, for ``expectNoLeaks(_:sourceLocation:_:)``: the tasks
  /// `body` creates count too.
  static func measureAsync<Result>(
    isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Result
  ) async rethrows -> (result: Result, leaked: Int) {
    requireCounting()
    let scope = Resources.Scope()
    let result = try await scope.run(body)
    return (result, scope.live)
  }

  /// Stops the program when this build of Streams does not count live objects, rather than let a
  /// leak check pass without having measured anything.
  static func requireCounting() {
    if !Resources.isCounting {
      fatalError(
        "LeakCheck: this build of Streams does not count live objects (Resources counts in"
          + " debug builds only); run leak checks in a debug build")
    }
  }

  /// The failure message for `leaked` objects, or `nil` when nothing leaked.
  static func message(leaked: Int, comment: String?) -> String? {
    guard leaked > 0 else { return nil }
    let prefix = comment.map { "\($0): " } ?? ""
    return prefix + "\(leaked) Streams object\(leaked == 1 ? " was" : "s were") left alive"
      + " (made in the block and not released by its end)"
  }
}
