extension ObservableType {
  /// Mirrors whichever of this sequence and `right` sends an event first.
  ///
  /// ```swift
  /// let primary = PublishSubject<Int>(), mirror = PublishSubject<Int>()
  /// _ = primary.amb(mirror).subscribe(onNext: { print($0) })
  /// mirror.onNext(1); primary.onNext(2); mirror.onNext(3)
  /// // Prints "1", "3"
  /// ```
  ///
  /// Both are subscribed, this one first. The first event of either (element, error or
  /// completion) picks it; the other is disposed at once. Completes and fails as the winner does.
  /// Disposal disposes whatever is still subscribed.
  public func amb<Right: ObservableType>(
    _ right: Right, file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> where Right.Element == Element {
    Observable.amb([asObservable(), right.asObservable()], file: file, line: line)
  }

  /// Mirrors whichever source of `sequence` sends an event first.
  ///
  /// ```swift
  /// let a = PublishSubject<Int>(), b = PublishSubject<Int>()
  /// _ = Observable.amb([a.asObservable(), b.asObservable()]).subscribe(onNext: { print($0) })
  /// b.onNext(1); a.onNext(2)
  /// // Prints "1"
  /// ```
  ///
  /// Every source is subscribed, in order; the first event of any of them picks it and the others
  /// are disposed. Completes and fails as the winner does; with no sources it never emits (as
  /// RxSwift's `amb` over an empty sequence). Disposal disposes whatever is still subscribed.
  public static func amb<Sources: Sequence>(
    _ sequence: Sources, file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> where Sources.Element == Observable<Element> {
    let sources = Array(sequence)
    return Observable(kind: "amb", upstreams: sources.map(\.traceID), file: file, line: line) {
      observer in
      AmbSink.subscribe(sources, observer: observer)
    }
  }
}
