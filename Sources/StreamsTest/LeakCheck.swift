import Streams

/// Counts the Streams objects (subscriptions, sinks, subjects, disposables) a block of code leaves
/// alive, from the core's live-object counter ``/Streams/Resources/total``.
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
/// `Resources.total` is process-wide: objects created or released by code running at the same
/// time (other tests, work still queued on real schedulers) change it too. Run leak checks where
/// nothing else runs: a `@Suite(.serialized)` whose tests are the only ones running
/// (`swift test --no-parallel`, or `--filter` on that suite), or an `XCTestCase`, which XCTest runs
/// one test at a time. The Swift Testing and XCTest front ends are
/// ``expectNoLeaks(_:sourceLocation:_:)-26ins`` and `XCTAssertNoLeaks(_:file:line:_:)`.
public enum LeakCheck {
  /// Runs `body` and returns its result with the change of ``/Streams/Resources/total``: positive
  /// when objects were left alive, 0 when everything `body` created was released.
  ///
  /// Rethrows what `body` throws (then nothing is measured).
  public static func measure<Result>(_ body: () throws -> Result) rethrows -> (
    result: Result, leaked: Int
  ) {
    requireCounting()
    return try measure(counter: { Resources.total }, body)
  }

  /// The `async` form of ``measure(_:)``, for ``expectNoLeaks(_:sourceLocation:_:)``.
  static func measureAsync<Result>(_ body: () async throws -> Result) async rethrows -> (
    result: Result, leaked: Int
  ) {
    requireCounting()
    let before = Resources.total
    let result = try await body()
    return (result, Resources.total - before)
  }

  /// Stops the program when this build of Streams does not count live objects, rather than let a
  /// leak check pass without having measured anything.
  static func requireCounting() {
    if !Resources.isCounting {
      fatalError(
        "LeakCheck: this build of Streams does not count live objects (Resources.total counts in"
          + " debug builds only); run leak checks in a debug build")
    }
  }

  /// ``measure(_:)`` over any counter; tests use a counter of their own.
  static func measure<Result>(counter: () -> Int, _ body: () throws -> Result) rethrows -> (
    result: Result, leaked: Int
  ) {
    let before = counter()
    let result = try body()
    return (result, counter() - before)
  }

  /// The failure message for `leaked` objects, or `nil` when nothing leaked.
  static func message(leaked: Int, comment: String?) -> String? {
    guard leaked != 0 else { return nil }
    let what =
      leaked > 0
      ? "\(leaked) Streams object\(leaked == 1 ? " was" : "s were") left alive"
      : "\(-leaked) more Streams object\(leaked == -1 ? " was" : "s were") released than created"
    let prefix = comment.map { "\($0): " } ?? ""
    return prefix + what
      + " (Resources.total is process-wide: run leak checks in a serialized suite, alone)"
  }
}
