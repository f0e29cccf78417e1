extension ObservableType where Element: FixedWidthInteger & Sendable {
  /// Emits 0, 1, 2, ... every `period`, as RxSwift's `Observable<Int>.interval`.
  ///
  /// ```swift
  /// // interval(2):  --0-1-2-3-...
  /// _ = Observable<Int>.interval(.seconds(1), scheduler: MainScheduler.instance)
  ///   .subscribe(onNext: { print($0) })
  /// // Prints "0" after a second, then "1", "2", ...
  /// ```
  ///
  /// The first element comes one `period` after the subscription. Never completes or fails (the
  /// counter wraps around on overflow). Disposal stops the timer.
  ///
  /// - Parameters:
  ///   - period: The time between elements.
  ///   - scheduler: Runs the periodic timer; elements are emitted on it.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  public static func interval(
    _ period: RxTimeInterval, scheduler: any SchedulerType,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    Observable(kind: "interval", upstreams: [], file: file, line: line) { observer in
      let output = GuardedSink(observer)
      output.setUpstream(
        scheduler.schedulePeriodic(Element.zero, startAfter: period, period: period) { count in
          output.on(.next(count))
          return count &+ 1
        })
      return output
    }
  }
}
