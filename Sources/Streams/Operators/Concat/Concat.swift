extension ObservableType {
  /// Forwards this sequence's elements, then, once it completed, those of `second`.
  ///
  /// ```swift
  /// let first = PublishSubject<Int>(), second = PublishSubject<Int>()
  /// _ = first.concat(second).subscribe(onNext: { print($0) })
  /// first.onNext(1); first.onCompleted(); second.onNext(2)
  /// // Prints "1", "2"
  /// ```
  ///
  /// `second` is subscribed when this sequence completes. Completes when `second` completes; fails
  /// with the first error. Disposal disposes the running subscription.
  public func concat<Source: ObservableConvertibleType>(
    _ second: Source, file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> where Source.Element == Element {
    Observable.concat([asObservable(), second.asObservable()], file: file, line: line)
  }

  /// Forwards the elements of each source in turn, subscribing to the next when one completes.
  ///
  /// ```swift
  /// let a = PublishSubject<Int>(), b = PublishSubject<Int>()
  /// _ = Observable.concat(a, b).subscribe(onNext: { print($0) })
  /// a.onNext(1); b.onNext(9); a.onCompleted(); b.onNext(2)
  /// // Prints "1", "2"
  /// ```
  ///
  /// Completes when the last source completed (at once when there is none); fails with the first
  /// error. Each source's subscription is disposed when it completes, before the next source is
  /// subscribed; the last one's after the completion was delivered (RxSwift's order). Disposal
  /// disposes the running one.
  public static func concat(
    _ sources: Observable<Element>..., file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    concat(sources, file: file, line: line)
  }

  /// Forwards the elements of each source of `collection` in turn.
  ///
  /// ```swift
  /// let a = PublishSubject<Int>(), b = PublishSubject<Int>()
  /// _ = Observable.concat([a.asObservable(), b.asObservable()]).subscribe(onNext: { print($0) })
  /// a.onNext(1); a.onCompleted(); b.onNext(2)
  /// // Prints "1", "2"
  /// ```
  ///
  /// Completes when the last source completed (at once for an empty collection); fails with the
  /// first error; disposal disposes the running subscription.
  public static func concat<Sources: Collection>(
    _ collection: Sources, file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> where Sources.Element == Observable<Element> {
    let sources = Array(collection)
    return concatSequence(sources, upstreams: sources.map(\.traceID), file: file, line: line)
  }

  /// Forwards the elements of each source of `sequence` in turn, iterating it lazily.
  ///
  /// ```swift
  /// let retries = (1...3).lazy.map { _ in api.fetch() }
  /// _ = Observable.concat(retries).subscribe(onNext: { print($0) })
  /// ```
  ///
  /// The sequence is iterated once per subscription, one source at a time, when the previous one
  /// completed; synchronous sources are chained in a loop, so a long sequence does not grow the
  /// stack. Completes when the sequence is exhausted; fails with the first error; disposal
  /// disposes the running subscription and stops the iteration.
  public static func concat<Sources: Sequence>(
    _ sequence: Sources, file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> where Sources.Element == Observable<Element> {
    concatSequence(sequence, upstreams: [], file: file, line: line)
  }

  /// `concat` over `sequence`, drawn in traces with the given upstreams.
  static func concatSequence<Sources: Sequence>(
    _ sequence: Sources, upstreams: [UInt64], file: StaticString, line: UInt
  ) -> Observable<Element> where Sources.Element == Observable<Element> {
    Observable(kind: "concat", upstreams: upstreams, file: file, line: line) { observer in
      ConcatSink(downstream: observer, sources: AnyIterator(sequence.makeIterator())).start()
    }
  }
}

extension ObservableType where Element: ObservableConvertibleType {
  /// Forwards the elements of each inner sequence in turn, subscribing to the next when one
  /// completes.
  ///
  /// ```swift
  /// let outer = PublishSubject<Observable<Int>>()
  /// let a = PublishSubject<Int>(), b = PublishSubject<Int>()
  /// _ = outer.concat().subscribe(onNext: { print($0) })
  /// outer.onNext(a.asObservable()); outer.onNext(b.asObservable())
  /// b.onNext(9); a.onNext(1); a.onCompleted(); b.onNext(2)
  /// // Prints "1", "2"
  /// ```
  ///
  /// The same as `merge(maxConcurrent: 1)`. Completes when the outer sequence and every inner
  /// sequence completed; fails with the first error. Disposal disposes every subscription.
  @inlinable
  public func concat(file: StaticString = #fileID, line: UInt = #line)
    -> Observable<Element.Element>
  {
    let source = asObservable()
    return Observable(kind: "concat", upstreams: [source.traceID], file: file, line: line) {
      observer in
      MergeSink.subscribe(source, limit: .queue(1), observer: observer) { $0.asObservable() }
    }
  }
}
