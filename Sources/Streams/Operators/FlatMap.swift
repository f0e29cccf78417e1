extension ObservableType {
  /// Maps each element to a sequence and merges the elements of all of them, as they arrive.
  ///
  /// ```swift
  /// let queries = PublishSubject<String>()
  /// _ = queries.flatMap { query in search(query) }.subscribe(onNext: { print($0) })
  /// ```
  ///
  /// ```
  /// source:      -a-------b------|
  /// selector(a):  -1---2|
  /// selector(b):          -3--4|
  /// result:      --1---2---3--4--|
  /// ```
  ///
  /// Completes when the source and every inner sequence completed. Fails with the first error of
  /// any of them, or when `selector` throws, disposing the rest. The source's subscription is
  /// disposed when it completes, each inner one when it completes, before a completion that
  /// follows is delivered (RxSwift may deliver it first, see the migration guide); disposal
  /// disposes all.
  /// Inner sequences may emit on different threads: elements are delivered one at a time and never
  /// under a lock.
  ///
  /// - Parameters:
  ///   - selector: Maps an element to the sequence whose elements are forwarded.
  ///   - isolation: The caller's actor (default `#isolation`): closures written in
  ///     actor-isolated code are checked to run on it. `nil` skips the check.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  @inlinable
  public func flatMap<Source: ObservableConvertibleType>(
    _ selector: @escaping (Element) throws -> Source,
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Source.Element> {
    let caller = CallerIsolation(isolation, api: "flatMap", file: file, line: line)
    let selector = isolation == nil ? selector : caller.checked(selector)
    let source = asObservable()
    return Observable(kind: "flatMap", upstreams: [source.traceID], file: file, line: line) {
      observer in
      MergeSink.subscribe(source, limit: .unbounded, observer: observer) {
        try selector($0).asObservable()
      }
    }
  }

  /// Maps an element to a sequence and forwards its elements, ignoring the elements that arrive
  /// while that sequence runs.
  ///
  /// ```swift
  /// _ = loginTaps.flatMapFirst { _ in api.login() }.subscribe(onNext: { print($0) })
  /// ```
  ///
  /// ```
  /// source:      -a--b----c---|
  /// selector(a):  -1--2|
  /// selector(c):          -3|
  /// result:      --1--2----3--|
  /// ```
  ///
  /// `b` is dropped: `selector` is not even called for it. Completes when the source completed and
  /// no inner sequence runs; fails with the first error, or when `selector` throws. Disposal
  /// disposes the source and the running inner sequence.
  ///
  /// - Parameters:
  ///   - selector: Maps an element to the sequence whose elements are forwarded.
  ///   - isolation: The caller's actor (default `#isolation`): closures written in
  ///     actor-isolated code are checked to run on it. `nil` skips the check.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  @inlinable
  public func flatMapFirst<Source: ObservableConvertibleType>(
    _ selector: @escaping (Element) throws -> Source,
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Source.Element> {
    let caller = CallerIsolation(isolation, api: "flatMapFirst", file: file, line: line)
    let selector = isolation == nil ? selector : caller.checked(selector)
    let source = asObservable()
    return Observable(kind: "flatMapFirst", upstreams: [source.traceID], file: file, line: line) {
      observer in
      MergeSink.subscribe(source, limit: .dropWhileBusy, observer: observer) {
        try selector($0).asObservable()
      }
    }
  }

  /// Maps each element to a sequence and forwards those sequences' elements one sequence after
  /// the other.
  ///
  /// ```swift
  /// _ = uploads.concatMap { file in api.upload(file) }.subscribe(onNext: { print($0) })
  /// ```
  ///
  /// ```
  /// source:      -a-b-------|
  /// selector(a):  -1--2|
  /// selector(b):       (subscribed when a's sequence completes) -3|
  /// result:      --1--2-3---|
  /// ```
  ///
  /// `selector` runs when the element arrives; its sequence is subscribed when the previous one
  /// completed. Completes when the source completed and every inner sequence completed; fails with
  /// the first error, or when `selector` throws. Disposal disposes the source and the running
  /// sequence and drops the waiting ones.
  ///
  /// - Parameters:
  ///   - selector: Maps an element to the sequence whose elements are forwarded.
  ///   - isolation: The caller's actor (default `#isolation`): closures written in
  ///     actor-isolated code are checked to run on it. `nil` skips the check.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  @inlinable
  public func concatMap<Source: ObservableConvertibleType>(
    _ selector: @escaping (Element) throws -> Source,
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Source.Element> {
    let caller = CallerIsolation(isolation, api: "concatMap", file: file, line: line)
    let selector = isolation == nil ? selector : caller.checked(selector)
    let source = asObservable()
    return Observable(kind: "concatMap", upstreams: [source.traceID], file: file, line: line) {
      observer in
      MergeSink.subscribe(source, limit: .queue(1), observer: observer) {
        try selector($0).asObservable()
      }
    }
  }

  /// Maps each element to a sequence and forwards only the elements of the latest one.
  ///
  /// ```swift
  /// _ = searchText.flatMapLatest { text in api.search(text) }.subscribe(onNext: { print($0) })
  /// ```
  ///
  /// ```
  /// source:      -a----b-------|
  /// selector(a):  -1--2--3|      (disposed when b arrives)
  /// selector(b):       -4---5|
  /// result:      --1--2-4---5--|
  /// ```
  ///
  /// A new element disposes the previous inner sequence before its own is subscribed. Completes
  /// when the source completed and the latest inner sequence completed; fails with the first error
  /// of the source or of the latest inner sequence, or when `selector` throws. Disposal disposes the
  /// source and the latest inner sequence.
  ///
  /// - Parameters:
  ///   - selector: Maps an element to the sequence whose elements are forwarded.
  ///   - isolation: The caller's actor (default `#isolation`): closures written in
  ///     actor-isolated code are checked to run on it. `nil` skips the check.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  @inlinable
  public func flatMapLatest<Source: ObservableConvertibleType>(
    _ selector: @escaping (Element) throws -> Source,
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Source.Element> {
    let caller = CallerIsolation(isolation, api: "flatMapLatest", file: file, line: line)
    let selector = isolation == nil ? selector : caller.checked(selector)
    let source = asObservable()
    return Observable(kind: "flatMapLatest", upstreams: [source.traceID], file: file, line: line) {
      observer in
      SwitchSink.subscribe(source, observer: observer) { try selector($0).asObservable() }
    }
  }
}
