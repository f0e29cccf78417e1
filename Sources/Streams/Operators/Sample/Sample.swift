extension ObservableType {
  /// Emits the latest source element each time `sampler` emits, as RxSwift's `sample`.
  ///
  /// ```swift
  /// // source:   -1-2---3-4--|
  /// // sampler:  ---x--x---x---x|
  /// // sample:   ---2------4---|
  /// _ = position.sample(ticks).subscribe(onNext: { print($0) })
  /// ```
  ///
  /// At each sampler element (and when the sampler completes) the element received since the
  /// previous tick is emitted; when there is none, `defaultValue` is emitted if given, else
  /// nothing. After the source completes, the next sampler tick or completion emits what is left
  /// and completes. If the sampler completes before the source, the result completes only if the
  /// source had already completed (as in RxSwift). Fails when either sequence fails. Disposal
  /// disposes both subscriptions. A sampler that completes is disposed at once, where RxSwift
  /// keeps it subscribed until the result ends (no event differs; see
  /// `Guides/Migrating-from-RxSwift.md`).
  ///
  /// Sampled elements reach the observer on the sampler's thread; as with the other
  /// multi-source operators, elements are not required to be `Sendable`, and the two sequences
  /// are expected to emit on threads the caller keeps consistent.
  ///
  /// - Parameters:
  ///   - sampler: The sequence whose elements trigger sampling.
  ///   - defaultValue: Emitted at a tick that has no new element, when not `nil`.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  public func sample<Source: ObservableType>(
    _ sampler: Source, defaultValue: Element? = nil,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    let source = asObservable()
    let ticks = sampler.asObservable()
    return Observable(
      kind: "sample", upstreams: [source.traceID, ticks.traceID], file: file, line: line
    ) { observer in
      let sourceSubscription = SingleAssignmentDisposable()
      let samplerSubscription = SingleAssignmentDisposable()
      let sink = SampleSink(
        observer, defaultValue: defaultValue, sourceSubscription: sourceSubscription)
      sink.output.setUpstream(Disposables.create(sourceSubscription, samplerSubscription))
      sourceSubscription.setDisposable(
        source.subscribeNested(AnyObserver(eventHandler: sink.onSource)))
      samplerSubscription.setDisposable(
        ticks.subscribeNested(AnyObserver { event in sink.onSampler(failure: event.error) })
      )
      return sink.output
    }
  }
}
