import Streams
import StreamsState

extension TestScheduler {
  /// Records the values of `cell`, stamped with this scheduler's clock: the current value now,
  /// then each stored value, so that a view model's effect on its state is asserted as RxTest
  /// asserts a stream.
  ///
  /// ```swift
  /// let scheduler = TestScheduler(initialClock: 0)
  /// let cell = StateCell(0)
  /// let values = scheduler.record(cell)
  /// _ = scheduler.createColdObservable([.next(10, 1), .next(20, 2)]).bind(to: cell)
  /// scheduler.start()
  /// // values.events == [.next(0, 0), .next(10, 1), .next(20, 2)]
  /// ```
  ///
  /// Call it on the main actor; the recording lasts as long as the cell.
  @MainActor
  public func record<Value: Sendable>(_ cell: StateCell<Value>) -> TestableObserver<Value> {
    let observer = createObserver(Value.self)
    _ = cell.asObservable().subscribe(observer)
    return observer
  }
}
