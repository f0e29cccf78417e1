extension ObservableType {
  /// Emits the arguments in order, then completes.
  ///
  /// ```swift
  /// _ = Observable.of(1, 2, 3).subscribe { print($0) }
  /// // Prints "next(1)", "next(2)", "next(3)", "completed"
  /// ```
  ///
  /// Each element is one step on the trampoline of the subscribing thread
  /// (``CurrentThreadScheduler``, RxSwift's default): work queued on the trampoline meanwhile (an
  /// inner source of `flatMap`, say) runs between two elements, and the stack does not grow with
  /// the number of elements. Completes after the last element; never fails. Disposal (for example
  /// by `take(2)` downstream) stops the emission before the next element. The elements never leave
  /// the subscribing thread, so `Element` need not be `Sendable`.
  ///
  /// - Parameters:
  ///   - elements: The elements to emit.
  ///   - scheduler: The trampoline of the subscribing thread; pass another scheduler to use the
  ///     overload that requires `Sendable` elements.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  public static func of(
    _ elements: Element..., scheduler: CurrentThreadScheduler = .instance,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    Observable.onTrampoline(kind: "of", file: file, line: line) { SequenceSteps(elements) }
  }

  /// Emits the arguments in order, one scheduled action each, then completes in a last action.
  ///
  /// ```swift
  /// // TestScheduler, subscribed at 200:
  /// // Observable.of(1, 2, scheduler: scheduler)  -> next(201, 1), next(202, 2), completed(203)
  /// ```
  ///
  /// Completes one action after the last element; never fails; disposal cancels the pending
  /// action. The elements cross to `scheduler`, so they must be `Sendable`.
  @_disfavoredOverload
  public static func of(
    _ elements: Element..., scheduler: any ImmediateSchedulerType,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> where Element: Sendable {
    Observable.onScheduler(kind: "of", file: file, line: line, scheduler: scheduler) {
      SequenceSteps(elements)
    }
  }

  /// Emits the elements of `array` in order, then completes.
  ///
  /// ```swift
  /// _ = Observable.from([1, 2]).subscribe { print($0) }
  /// // Prints "next(1)", "next(2)", "completed"
  /// ```
  ///
  /// Runs on the trampoline of the subscribing thread, one step per element, as
  /// `of(_:)` does; completes after the last
  /// element; never fails; disposal stops it before the next element. `Element` need not be
  /// `Sendable`.
  public static func from(
    _ array: [Element], scheduler: CurrentThreadScheduler = .instance,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    Observable.onTrampoline(kind: "from", file: file, line: line) { SequenceSteps(array) }
  }

  /// Emits the elements of `array` in order, one action on `scheduler` each, then completes in a
  /// last action.
  ///
  /// ```swift
  /// // TestScheduler, subscribed at 200:
  /// // Observable.from([1, 2], scheduler: scheduler)  -> next(201, 1), next(202, 2), completed(203)
  /// ```
  ///
  /// Never fails; disposal cancels the pending action. The elements cross to `scheduler`, so they
  /// must be `Sendable`.
  @_disfavoredOverload
  public static func from(
    _ array: [Element], scheduler: any ImmediateSchedulerType,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> where Element: Sendable {
    Observable.onScheduler(kind: "from", file: file, line: line, scheduler: scheduler) {
      SequenceSteps(array)
    }
  }

  /// Emits the elements of `sequence` in order, then completes.
  ///
  /// ```swift
  /// _ = Observable.from(1...).take(2).subscribe { print($0) }
  /// // Prints "next(1)", "next(2)", "completed"
  /// ```
  ///
  /// Each subscription makes a new iterator. Runs on the trampoline of the subscribing thread,
  /// one step per element, so an infinite sequence is fine as long as something downstream stops
  /// it; completes when the iterator returns `nil`; never fails; disposal stops it before the next
  /// element. The iterator never leaves the subscribing thread, so nothing need be `Sendable`.
  public static func from<S: Sequence>(
    _ sequence: S, scheduler: CurrentThreadScheduler = .instance,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> where S.Element == Element {
    Observable.onTrampoline(kind: "from", file: file, line: line) { SequenceSteps(sequence) }
  }

  /// Emits the elements of `sequence` in order, one action on `scheduler` each, then completes in
  /// a last action.
  ///
  /// ```swift
  /// // TestScheduler, subscribed at 200:
  /// // Observable.from(1...2, scheduler: scheduler)  -> next(201, 1), next(202, 2), completed(203)
  /// ```
  ///
  /// The sequence and its elements cross to `scheduler`, so they must be `Sendable`; the iterator
  /// is handed from one action to the next (never used by two at once). Never fails; disposal
  /// cancels the pending action.
  @_disfavoredOverload
  public static func from<S: Sequence & Sendable>(
    _ sequence: S, scheduler: any ImmediateSchedulerType,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> where S.Element == Element, Element: Sendable {
    Observable.onScheduler(kind: "from", file: file, line: line, scheduler: scheduler) {
      SequenceSteps(sequence)
    }
  }
}
