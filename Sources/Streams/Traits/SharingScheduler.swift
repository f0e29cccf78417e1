/// The scheduler ``Driver`` and ``Signal`` deliver on, and the hook tests use to replace it:
/// RxCocoa's `SharingScheduler`.
///
/// ```swift
/// let scheduler = TestScheduler(initialClock: 0)
/// SharingScheduler.mock(scheduler: scheduler) {
///   let driver = Observable.just(1).asDriver(onErrorJustReturn: 0)
///   let res = scheduler.start { driver.asObservable() }
///   // res.events == [.next(201, 1), .completed(202)]
/// }
/// ```
///
/// The shared sequences read the scheduler when they are built (`asDriver`, `asSignal`,
/// `Driver.just`, `Driver.timer`, ...), as in RxCocoa: build the view model inside
/// ``mock(scheduler:action:)``.
///
/// Unlike RxCocoa, which swaps a global, the mock is a task-local value: it applies to the code
/// `action` runs synchronously and to the tasks it starts, not to other threads. Tests that run
/// in parallel (Swift Testing's default) each see their own mock.
public enum SharingScheduler {
  @TaskLocal private static var mocked: (@Sendable () -> any SchedulerType)?

  /// Makes the scheduler shared sequences built now deliver on: `MainScheduler.instance`, or the
  /// mock of an enclosing ``mock(makeScheduler:action:)``.
  ///
  /// ```swift
  /// let scheduler = SharingScheduler.make()  // MainScheduler.instance outside a mock
  /// ```
  public static var make: @Sendable () -> any SchedulerType {
    mocked ?? { MainScheduler.instance }
  }

  /// `true` inside ``mock(makeScheduler:action:)``.
  static var isMocked: Bool { mocked != nil }

  /// Runs `action` with `scheduler` as the scheduler of the shared sequences built during it.
  ///
  /// ```swift
  /// SharingScheduler.mock(scheduler: testScheduler) {
  ///   let viewModel = SearchViewModel(query: query.asObservable())
  ///   let res = testScheduler.start { viewModel.results.asObservable() }
  /// }
  /// ```
  ///
  /// Meant for tests. The subscriptions of sequences built during `action` then happen on the
  /// subscribing thread, with no hop to the main queue, and elements arrive on `scheduler`.
  /// `drive` and `emit` still require the main actor: call them from a `@MainActor` test.
  ///
  /// - Parameters:
  ///   - scheduler: The scheduler to deliver on, usually a `TestScheduler`.
  ///   - action: Builds and runs what is tested. Rethrows what it throws.
  public static func mock(scheduler: any SchedulerType, action: () throws -> Void) rethrows {
    try mock(makeScheduler: { scheduler }, action: action)
  }

  /// Runs `action` with `makeScheduler` making the scheduler of the shared sequences built
  /// during it.
  ///
  /// ```swift
  /// SharingScheduler.mock(makeScheduler: { testScheduler }) {
  ///   // build and test the view model here
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - makeScheduler: Called each time a shared sequence is built during `action`.
  ///   - action: Builds and runs what is tested. Rethrows what it throws.
  public static func mock(
    makeScheduler: @escaping @Sendable () -> any SchedulerType, action: () throws -> Void
  ) rethrows {
    try $mocked.withValue(makeScheduler, operation: action)
  }
}
