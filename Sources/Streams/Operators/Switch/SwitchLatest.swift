extension ObservableType where Element: ObservableConvertibleType {
  /// Forwards the elements of the latest inner sequence only.
  ///
  /// ```swift
  /// let outer = PublishSubject<Observable<Int>>()
  /// let a = PublishSubject<Int>(), b = PublishSubject<Int>()
  /// _ = outer.switchLatest().subscribe(onNext: { print($0) })
  /// outer.onNext(a.asObservable()); a.onNext(1)
  /// outer.onNext(b.asObservable()); a.onNext(2); b.onNext(3)
  /// // Prints "1", "3"
  /// ```
  ///
  /// A new inner sequence disposes the previous one before it is subscribed. Completes when the
  /// outer sequence completed and the latest inner sequence completed; fails with the first error
  /// of the outer sequence or of the latest inner one, disposing the outer and then the inner
  /// subscription after the error was delivered (RxSwift disposes the failing one first). The
  /// outer subscription is disposed when it completes; disposal disposes the outer and the
  /// latest inner subscription.
  @inlinable
  public func switchLatest(file: StaticString = #fileID, line: UInt = #line)
    -> Observable<Element.Element>
  {
    let source = asObservable()
    return Observable(kind: "switchLatest", upstreams: [source.traceID], file: file, line: line) {
      observer in
      SwitchSink.subscribe(source, observer: observer) { $0.asObservable() }
    }
  }
}
