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

/// Not `Sendable`: source and sampler may emit on different threads, which is why the state is
/// behind a lock and the downstream is reached through the outbox.
private final class SampleSink<Element> {
  struct State: OutboxState {
    var element: Element?
    var atEnd = false
    var outbox = SerialOutbox<Element>()

    mutating func nextPending() -> Event<Element>? { outbox.next() }

    var turnRank: Int { outbox.turns.rank }
  }

  let output: GuardedSink<Element>
  private let sourceSubscription: SingleAssignmentDisposable
  private let state = Locked(State())
  private let defaultValue: Element?

  init(
    _ observer: AnyObserver<Element>, defaultValue: Element?,
    sourceSubscription: SingleAssignmentDisposable
  ) {
    output = GuardedSink(observer)
    self.defaultValue = defaultValue
    self.sourceSubscription = sourceSubscription
  }

  func onSource(_ event: Event<Element>) {
    switch event {
    case .next(let element):
      // The element it replaces is released after the lock.
      let replaced = state.withLock { s in
        s.outbox.isClosed ? nil : s.element.replace(with: element)
      }
      withExtendedLifetime(replaced) {}
    case .error:
      state.update(into: output) { ((), $0.outbox.send(event)) }
    case .completed:
      state.withLock { $0.atEnd = true }
      sourceSubscription.dispose()
    }
  }

  /// A sampler event: an element or a completion (`failure == nil`), or an error.
  func onSampler(failure: (any Error)?) {
    state.update(into: output) { s in
      if let error = failure { return ((), s.outbox.send(.error(error))) }
      if s.outbox.isClosed { return ((), nil) }
      var first: Event<Element>?
      if let element = s.element.take() {
        first = s.outbox.send(.next(element))
      } else if let defaultValue {
        first = s.outbox.send(.next(defaultValue))
      }
      if s.atEnd {
        let completed = s.outbox.send(.completed)
        first = first ?? completed
      }
      return ((), first)
    }
  }
}
