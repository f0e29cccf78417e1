extension ObservableType {
  /// Emits `element` forever.
  ///
  /// ```swift
  /// _ = Observable.repeatElement("a").take(2).subscribe { print($0) }
  /// // Prints "next(a)", "next(a)", "completed"
  /// ```
  ///
  /// One step per element on the trampoline of the subscribing thread (RxSwift's default
  /// ``CurrentThreadScheduler``), so the stack does not grow; never completes or fails. Something
  /// downstream must dispose it (`take`, `take(until:)`): disposal stops it before the next
  /// element. `Element` need not be `Sendable`.
  public static func repeatElement(
    _ element: Element, scheduler: CurrentThreadScheduler = .instance,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    Observable.onTrampoline(kind: "repeatElement", file: file, line: line) {
      RepeatSteps(element: element)
    }
  }

  /// Emits `element` forever, one action on `scheduler` each.
  ///
  /// ```swift
  /// // TestScheduler, subscribed at 200:
  /// // Observable.repeatElement(0, scheduler: scheduler)  -> next(201, 0), next(202, 0), ...
  /// ```
  ///
  /// Never completes or fails; disposal cancels the pending action. The element crosses to
  /// `scheduler`, so it must be `Sendable`.
  @_disfavoredOverload
  public static func repeatElement(
    _ element: Element, scheduler: any ImmediateSchedulerType,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> where Element: Sendable {
    Observable.onScheduler(kind: "repeatElement", file: file, line: line, scheduler: scheduler) {
      RepeatSteps(element: element)
    }
  }
}

/// The steps of `repeatElement`: the same element, forever.
private struct RepeatSteps<Element>: EmissionSteps {
  let element: Element

  func next() -> Event<Element> { .next(element) }
}
