extension ObservableType {
  /// Emits `element` and completes, synchronously, during the subscription.
  ///
  /// ```swift
  /// _ = Observable.just(1).subscribe { print($0) }
  /// // Prints "next(1)", "completed"
  /// ```
  ///
  /// Completes right after the element; never fails. Both events are delivered before `subscribe`
  /// returns, so disposal has nothing left to stop. `Element` need not be `Sendable`.
  ///
  /// - Parameters:
  ///   - element: The single element.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  @inlinable
  public static func just(
    _ element: Element, file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    JustObservable(element, file: file, line: line)
  }

  /// Emits `element` and then completes, each in its own action on the trampoline of the
  /// subscribing thread.
  ///
  /// ```swift
  /// _ = Observable.just(1, scheduler: CurrentThreadScheduler.instance).subscribe { print($0) }
  /// // Prints "next(1)", "completed"
  /// ```
  ///
  /// Completes one step after the element; never fails; disposal before a step cancels it.
  /// This overload keeps the elements on the subscribing thread, so `Element` need not be
  /// `Sendable`.
  public static func just(
    _ element: Element, scheduler: CurrentThreadScheduler,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    Observable.onTrampoline(kind: "just", file: file, line: line) {
      SequenceSteps(CollectionOfOne(element))
    }
  }

  /// Emits `element` in one action on `scheduler` and completes in a second one, as RxSwift's
  /// `just(_:scheduler:)`.
  ///
  /// ```swift
  /// // TestScheduler, subscribed at 200:
  /// // Observable.just(42, scheduler: scheduler)  -> next(201, 42), completed(202)
  /// ```
  ///
  /// Completes one scheduled action after the element; never fails; disposal cancels the
  /// pending action. The element crosses to the scheduler, so it must be `Sendable`.
  @_disfavoredOverload
  public static func just(
    _ element: Element, scheduler: any ImmediateSchedulerType,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> where Element: Sendable {
    Observable.onScheduler(kind: "just", file: file, line: line, scheduler: scheduler) {
      SequenceSteps(CollectionOfOne(element))
    }
  }
}

/// The observable of ``ObservableType/just(_:file:line:)``: one allocation that holds the element.
///
/// Subscribing emits the element and completes, synchronously, and schedules nothing. Merging
/// operators (`flatMap`, `flatMapLatest`, ...) recognise it and deliver its element without
/// subscribing when no tracer is installed, which is indistinguishable from a subscription: the
/// same events in the same order, on the same trampoline, and nothing to dispose.
@usableFromInline
final class JustObservable<Element>: Observable<Element> {
  @usableFromInline let element: Element
  /// Emits the element and completes; made in the caller's specialized code and capturing
  /// nothing, so that it needs no closure context and no generic metadata lookup per event.
  @usableFromInline let emit: (Element, AnyObserver<Element>) -> Void

  @inlinable
  init(_ element: Element, file: StaticString, line: UInt) {
    self.element = element
    self.emit = { element, observer in
      observer.on(.next(element))
      observer.on(.completed)
    }
    super.init(
      kind: "just", upstreams: [], file: file, line: line, disposableReleasesObserver: true,
      producer: { _ in
        streamsStop("Streams internal error: JustObservable subscribes through produce")
      })
  }

  @usableFromInline
  override func produce(_ observer: AnyObserver<Element>) -> any Disposable {
    emit(element, observer)
    return Disposables.create()
  }
}
