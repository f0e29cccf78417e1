extension ObservableType where Element: FixedWidthInteger & Sendable {
  /// Emits 0 after `dueTime` and then completes, or, with a `period`, emits 0, 1, 2, ... every
  /// `period` after the first, as RxSwift's `Observable<Int>.timer`.
  ///
  /// ```swift
  /// // timer(3):             ---(0|)
  /// // timer(3, period: 2):  ---0-1-2-...
  /// _ = Observable<Int>.timer(.seconds(2), scheduler: MainScheduler.instance)
  ///   .subscribe(onNext: { print($0) }, onCompleted: { print("done") })
  /// // Prints "0", "done" after two seconds
  /// ```
  ///
  /// Without a period, completes right after its one element; with a period, never completes or
  /// fails (the counter wraps around on overflow). Disposal cancels the timer.
  ///
  /// - Parameters:
  ///   - dueTime: The time before the first element.
  ///   - period: The time between later elements, or `nil` for a single element.
  ///   - scheduler: Runs the timer; elements are emitted on it.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  public static func timer(
    _ dueTime: RxTimeInterval, period: RxTimeInterval? = nil, scheduler: any SchedulerType,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    Observable(kind: "timer", upstreams: [], file: file, line: line) { observer in
      let output = GuardedSink(observer)
      if let period {
        output.setUpstream(
          scheduler.schedulePeriodic(Element.zero, startAfter: dueTime, period: period) {
            count in
            output.on(.next(count))
            return count &+ 1
          })
      } else {
        output.setUpstream(
          scheduler.scheduleRelative((), dueTime: dueTime) { _ in
            output.on(.next(Element.zero))
            output.on(.completed)
            return Disposables.create()
          })
      }
      return output
    }
  }
}
