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
  /// disposes the source and then runs `onDispose`, once; after a terminal event that happens
  /// once its `after…` handler has run (RxSwift does the same for a subscriber right behind the
  /// `do`, but runs `onDispose` first when an operator between them disposes during the event).
  /// Two exceptions, where RxSwift's order matters more: `retry`, `retry(when:)` and
  /// `catch(sequence:)` dispose a failed attempt, and run its `onDispose`, before they subscribe
  /// again (then `afterError` runs last, as in RxSwift); and stacked `do`s run their `onDispose`
  /// upstream first. A source that terminates while it is being subscribed is disposed (and `onDispose`
  /// runs) after `onSubscribed`, as in RxSwift.
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
  ///   - isolation: The caller's actor (default `#isolation`): closures written in
  ///     actor-isolated code are checked to run on it. `nil` skips the check.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
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
    isolation: (any Actor)? = #isolation,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    let caller = CallerIsolation(isolation, api: "do", file: file, line: line)
    let onNext = isolation == nil ? onNext : onNext.map { caller.checked($0) }
    let afterNext = isolation == nil ? afterNext : afterNext.map { caller.checked($0) }
    let onError = isolation == nil ? onError : onError.map { caller.checked($0) }
    let afterError = isolation == nil ? afterError : afterError.map { caller.checked($0) }
    let onCompleted = isolation == nil ? onCompleted : onCompleted.map { caller.checked($0) }
    let afterCompleted =
      isolation == nil ? afterCompleted : afterCompleted.map { caller.checked($0) }
    let onSubscribe = caller.guarding(onSubscribe)
    let onSubscribed = caller.guarding(onSubscribed)
    let onDispose = caller.guarding(onDispose)
    let source = asObservable()
    return Observable(kind: "do", upstreams: [source.traceID], file: file, line: line) {
      observer in
      onSubscribe?()
      let lifecycle = DoLifecycle(onDispose: onDispose)
      // `true` while the terminal event being delivered is the source's own, so that its
      // `after…` handler runs; a terminal event made from a throw runs none.
      var sourceTerminal = false
      let sink = GuardedSink<Element>(
        AnyObserver { event in
          guard event.isStopEvent else {
            observer.on(event)
            return
          }
          lifecycle.beginTerminal()
          observer.on(event)
          if sourceTerminal {
            switch event {
            case .next: break
            case .error(let error): _ = try? afterError?(error)
            case .completed: _ = try? afterCompleted?()
            }
          }
          lifecycle.endTerminal()
        })
      let subscription = source.subscribeAny(
        AnyObserver { event in
          guard sink.isActive else { return }
          switch event {
          case .next(let element):
            do {
              try onNext?(element)
              sink.on(event)
              try afterNext?(element)
            } catch {
              sink.on(.error(error))
            }
          case .error(let error):
            do {
              try onError?(error)
            } catch {
              sink.on(.error(error))
              return
            }
            sourceTerminal = true
            sink.on(event)
          case .completed:
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
      lifecycle.setSubscription(subscription)
      onSubscribed?()
      sink.setUpstream(lifecycle)
      return sink
    }
  }
}

/// Disposes the subscription to the source and then runs `onDispose`, once, but never while a
/// terminal event is being delivered: a downstream subscriber disposes its upstream while it
/// handles the terminal event, and RxSwift runs `afterCompleted` / `afterError` before
/// `onDispose`. A disposal that arrives during delivery is deferred to the end of it, unless it
/// comes through ``disposeFully(_:)``: what must happen after the disposal (a resubscription, the
/// `onDispose` of a `do` further down) then waits for it instead.
///
/// `@unchecked Sendable`: `state` is guarded by its lock; `onDispose` is the caller's closure,
/// run once, on the thread that disposes (or that ends the delivery), as RxSwift runs it.
@usableFromInline
final class DoLifecycle: Disposable, @unchecked Sendable {
  private enum Phase {
    case running
    case delivering
    case disposeDeferred
    case disposed
  }

  private struct State {
    var phase = Phase.running
    var subscription: (any Disposable)?
    /// The trampoline of the thread delivering the terminal event (phase `delivering`): only a
    /// disposal on that thread may run before the delivery ends (``disposeFully(_:)``).
    var deliveringOn: UnsafeMutableRawPointer?
  }

  private let state = Locked(State())
  private let onDispose: (() -> Void)?

  @usableFromInline
  init(onDispose: (() -> Void)?) {
    self.onDispose = onDispose
  }

  /// Records the subscription to the source; called before the lifecycle can be disposed.
  @usableFromInline
  func setSubscription(_ subscription: any Disposable) {
    state.withLock { $0.subscription = subscription }
  }

  /// A terminal event is about to be delivered downstream.
  @usableFromInline
  func beginTerminal() {
    let thread = Trampoline.currentUnretained.toOpaque()
    state.withLock { state in
      if state.phase == .running {
        state.phase = .delivering
        state.deliveringOn = thread
      }
    }
  }

  /// The terminal event and its `after…` handler are done; runs a deferred disposal.
  @usableFromInline
  func endTerminal() {
    let release = state.withLock { state -> Bool in
      switch state.phase {
      case .delivering:
        state.phase = .running
        return false
      case .disposeDeferred:
        state.phase = .disposed
        return true
      case .running, .disposed:
        return false
      }
    }
    if release { self.release() }
  }

  @usableFromInline
  func dispose() {
    let thread = Trampoline.currentUnretained
    let (release, deferredHere) = state.withLock { state -> (Bool, Bool) in
      switch state.phase {
      case .running:
        state.phase = .disposed
        return (true, false)
      case .delivering:
        state.phase = .disposeDeferred
        return (false, state.deliveringOn == thread.toOpaque())
      case .disposeDeferred:
        // Deferred by an earlier plain `dispose()` on the delivering thread: a `disposeFully`
        // now must still run it before it returns (running it twice is harmless).
        return (false, state.deliveringOn == thread.toOpaque())
      case .disposed:
        return (false, false)
      }
    }
    if release { self.release() }
    // A delivery under way on another thread keeps its disposal until it ends; one on this
    // thread, inside `disposeFully`, is run before `disposeFully` returns.
    if deferredHere {
      thread._withUnsafeGuaranteedRef { trampoline in
        if trampoline.disposeFullyDepth > 0 { trampoline.deferredDisposals.append(self) }
      }
    }
  }

  /// Runs a deferred disposal now, unless the delivery has ended and run it already.
  private func releaseDeferred() {
    let release = state.withLock { state -> Bool in
      guard state.phase == .disposeDeferred else { return false }
      state.phase = .disposed
      return true
    }
    if release { self.release() }
  }

  private func release() {
    let subscription = state.withLock { state -> (any Disposable)? in
      defer { state.subscription = nil }
      return state.subscription
    }
    // Stacked `do`s run their `onDispose` upstream first, as in RxSwift, even when the upstream
    // one is still delivering its terminal event.
    Self.disposeFully(subscription)
    onDispose?()
  }

  /// Disposes `disposable` and, before returning, runs the disposal of every `do` it reached that
  /// was delivering a terminal event on this thread, with its `onDispose`, instead of deferring
  /// it to the end of that delivery.
  ///
  /// For an operator that does something after the disposal: `retry` and `catch(sequence:)`
  /// subscribe again, and RxSwift runs the failed attempt's `onDispose` first (a spinner shown in
  /// `onSubscribe` and hidden in `onDispose` must end shown). The `do`s reached run
  /// `afterCompleted` / `afterError` after their `onDispose` then, as RxSwift does.
  static func disposeFully(_ disposable: (any Disposable)?) {
    guard let disposable else { return }
    let trampoline = Trampoline.current
    let mark = trampoline.deferredDisposals.count
    trampoline.disposeFullyDepth += 1
    disposable.dispose()
    trampoline.disposeFullyDepth -= 1
    while trampoline.deferredDisposals.count > mark {
      trampoline.deferredDisposals.remove(at: mark).releaseDeferred()
    }
  }
}
