extension ObservableType {
  /// Runs side effects for the source's events and subscription lifecycle, and passes every event
  /// through unchanged.
  ///
  /// ```swift
  /// _ = Observable.of(1, 2)
  ///   .do(onNext: { print("will emit \($0)") }, afterNext: { print("emitted \($0)") },
  ///       onDispose: { print("disposed") })
  ///   .subscribe(onNext: { print($0) })
  /// // Prints "will emit 1", "1", "emitted 1", "will emit 2", "2", "emitted 2", "disposed"
  /// ```
  ///
  /// The order is RxSwift's. Subscribing runs `onSubscribe`, subscribes to the source, then runs
  /// `onSubscribed`. For each event, the `on…` handler runs before the event is passed on and the
  /// `after…` handler after it. Disposal, whether from a terminal event or from the subscriber,
  /// disposes the source and then runs `onDispose`, once. A source that terminates while it is
  /// being subscribed is disposed (and `onDispose` runs) after `onSubscribed`, as in RxSwift.
  ///
  /// Completes and fails when the source does. A throw from `onNext`, `onError` or
  /// `onCompleted` is sent as `.error` instead of the event; a throw from `afterNext` is sent as
  /// `.error` after the element. Either disposes the source. A throw from `afterError` or
  /// `afterCompleted` is dropped: the sequence has already terminated (RxSwift would send an
  /// `.error` after the terminal event, which breaks the event grammar).
  ///
  /// - Parameters:
  ///   - onNext: Runs for each element before it is passed on.
  ///   - afterNext: Runs for each element after it was passed on.
  ///   - onError: Runs for the error before it is passed on.
  ///   - afterError: Runs for the error after it was passed on.
  ///   - onCompleted: Runs before completion is passed on.
  ///   - afterCompleted: Runs after completion was passed on.
  ///   - onSubscribe: Runs before subscribing to the source.
  ///   - onSubscribed: Runs after subscribing to the source.
  ///   - onDispose: Runs after the subscription to the source was disposed, for any reason.
  /// - Returns: The source with the side effects attached.
  @inlinable
  public func `do`(
    onNext: ((Element) throws -> Void)? = nil,
    afterNext: ((Element) throws -> Void)? = nil,
    onError: ((any Error) throws -> Void)? = nil,
    afterError: ((any Error) throws -> Void)? = nil,
    onCompleted: (() throws -> Void)? = nil,
    afterCompleted: (() throws -> Void)? = nil,
    onSubscribe: (() -> Void)? = nil,
    onSubscribed: (() -> Void)? = nil,
    onDispose: (() -> Void)? = nil,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    let source = asObservable()
    return Observable(kind: "do", upstreams: [source.traceID], file: file, line: line) {
      observer in
      onSubscribe?()
      // `true` while the terminal event being delivered is the source's own, so that its
      // `after…` handler runs; a terminal event made from a throw runs none.
      var sourceTerminal = false
      let sink = GuardedSink<Element>(
        AnyObserver { event in
          observer.on(event)
          guard sourceTerminal else { return }
          switch event {
          case .next: break
          case .error(let error): _ = try? afterError?(error)
          case .completed: _ = try? afterCompleted?()
          }
        })
      let subscription = source.subscribeAny(
        AnyObserver { event in
          switch event {
          case .next(let element):
            guard sink.isActive else { return }
            do {
              try onNext?(element)
              sink.on(event)
              try afterNext?(element)
            } catch {
              sink.on(.error(error))
            }
          case .error(let error):
            guard sink.isActive else { return }
            do {
              try onError?(error)
            } catch {
              sink.on(.error(error))
              return
            }
            sourceTerminal = true
            sink.on(event)
          case .completed:
            guard sink.isActive else { return }
            do {
              try onCompleted?()
            } catch {
              sink.on(.error(error))
              return
            }
            sourceTerminal = true
            sink.on(event)
          }
        })
      onSubscribed?()
      sink.setUpstream(DoDisposable(subscription: subscription, onDispose: onDispose))
      return sink
    }
  }
}

/// Disposes the subscription to the source, then runs `onDispose`.
///
/// `@unchecked Sendable`: `onDispose` is the caller's closure; it runs once, on the thread that
/// disposes, as RxSwift runs it. ``GuardedSink`` calls `dispose()` at most once.
@usableFromInline
struct DoDisposable: Disposable, @unchecked Sendable {
  @usableFromInline let subscription: any Disposable
  @usableFromInline let onDispose: (() -> Void)?

  @inlinable
  init(subscription: any Disposable, onDispose: (() -> Void)?) {
    self.subscription = subscription
    self.onDispose = onDispose
  }

  @inlinable
  func dispose() {
    subscription.dispose()
    onDispose?()
  }
}
