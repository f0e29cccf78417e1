import Testing

/// This package's tests that use `MainScheduler.instance` run one at a time, across every test
/// target: the scheduler runs work at once only while nothing is queued on it, process-wide (as
/// RxSwift's does), so a test checking that and a test queueing on it from another thread must
/// not overlap while the tests run in parallel.
///
/// ```swift
/// @Suite("MainScheduler", .mainSchedulerExclusive)
/// struct MainSchedulerTests { ... }
/// ```
///
/// A suite trait that applies to each test function in the suite and in its nested suites; a test
/// that already holds the exclusion (a nested application) does not wait for it again.
package struct MainSchedulerExclusive: SuiteTrait, TestTrait, TestScoping {
  package var isRecursive: Bool { true }

  package func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
    test.isSuite ? nil : self
  }

  package func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    if Self.held { return try await function() }
    await Self.exclusion.acquire()
    do {
      try await Self.$held.withValue(true) { try await function() }
    } catch {
      await Self.exclusion.release()
      throw error
    }
    await Self.exclusion.release()
  }

  /// Whether the calling task holds the exclusion.
  @TaskLocal private static var held = false
  private static let exclusion = AsyncExclusion()
}

extension Trait where Self == MainSchedulerExclusive {
  /// Runs the suite's tests one at a time among all the tests so marked (see
  /// ``MainSchedulerExclusive``).
  package static var mainSchedulerExclusive: Self { Self() }
}

/// A first-come, first-served exclusion for tasks: a waiting task suspends, it blocks no thread.
private actor AsyncExclusion {
  private var busy = false
  private var waiters: [CheckedContinuation<Void, Never>] = []

  func acquire() async {
    guard busy else {
      busy = true
      return
    }
    await withCheckedContinuation { waiters.append($0) }
  }

  /// Hands the exclusion to the first waiter, if any (it stays busy), or frees it.
  func release() {
    if waiters.isEmpty {
      busy = false
    } else {
      waiters.removeFirst().resume()
    }
  }
}
