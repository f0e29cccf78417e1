import Dispatch

/// How a ``SharedSequence`` shares its source among subscribers, and where it delivers: RxCocoa's
/// sharing strategy.
public protocol SharingStrategyProtocol {
  /// The scheduler elements are delivered on: ``SharingScheduler/make`` (the main scheduler, or
  /// a test's mock) unless a strategy says otherwise.
  static var scheduler: any SchedulerType { get }

  /// Shares `source` among the subscribers of a shared sequence.
  static func share<Element>(_ source: Observable<Element>) -> Observable<Element>
}

extension SharingStrategyProtocol {
  /// ``SharingScheduler/make``'s scheduler: `MainScheduler.instance` outside a test's mock.
  public static var scheduler: any SchedulerType { SharingScheduler.make() }
}

/// Sharing for ``Driver``: the latest element is replayed to new subscribers while at least one
/// subscriber is connected (`share(replay: 1, scope: .whileConnected)`).
public enum DriverSharingStrategy: SharingStrategyProtocol {
  /// Shares `source`, replaying the latest element while connected.
  public static func share<Element>(_ source: Observable<Element>) -> Observable<Element> {
    source.share(replay: 1, scope: .whileConnected)
  }
}

/// Sharing for ``Signal``: nothing is replayed to new subscribers (`share(scope: .whileConnected)`).
public enum SignalSharingStrategy: SharingStrategyProtocol {
  /// Shares `source` without replay.
  public static func share<Element>(_ source: Observable<Element>) -> Observable<Element> {
    source.share(replay: 0, scope: .whileConnected)
  }
}

/// A type that is, or can be viewed as, a ``SharedSequence``.
public protocol SharedSequenceConvertibleType: ObservableConvertibleType {
  /// How the sequence is shared.
  associatedtype SharingStrategy: SharingStrategyProtocol

  /// `self` as a ``SharedSequence``.
  func asSharedSequence() -> SharedSequence<SharingStrategy, Element>
}

/// A sequence for UI code that never fails, delivers on the main thread and is shared among its
/// subscribers: RxCocoa's `SharedSequence`, behind ``Driver`` and ``Signal``.
///
/// ```swift
/// let title: Driver<String> = viewModel.title.asDriver(onErrorJustReturn: "")
/// title.drive(onNext: { label.text = $0 }).disposed(by: bag)
/// ```
///
/// Events reach subscribers on the main thread: synchronously when the source emits there and no
/// other main-thread delivery is pending, otherwise through the main queue: `observe(on:
/// MainScheduler.instance)`. A delivery requested while another one runs on the main thread is
/// queued too: a shared sequence converted again (`signal.asDriver(...)`) or a recovery sequence
/// subscribed from inside an error delivery emits on a later turn of the main queue, as in
/// RxSwift. Replayed elements (a `Driver`'s latest) are delivered to a new subscriber on the
/// main thread: during its subscription when it subscribes there, as `drive` and `emit` (which
/// are `@MainActor`) do. A subscription made on another thread (through ``asObservable()``) is
/// made on the main queue instead, so its replay arrives later, there; RxCocoa replays on the
/// subscribing thread, but Streams' shared subject would then deliver the main thread's concurrent
/// events to every subscriber from that thread. Disposal works from any thread.
///
/// Elements that cross to the main thread must be `Sendable`: the conversions
/// (`asDriver(onErrorJustReturn:)`, ...) and `just` say so. Operators applied to a shared
/// sequence (`map`, `filter`, ...) run on the main thread, so their results need not be.
public struct SharedSequence<SharingStrategy: SharingStrategyProtocol, Element>:
  SharedSequenceConvertibleType
{
  let source: Observable<Element>

  /// Shares `source` with the strategy; `source` must already deliver on the main thread and
  /// never fail.
  ///
  /// A subscription made off the main thread is moved onto the main queue before it reaches the
  /// shared node. The node's subject serializes delivery: a thread that replays the latest
  /// element to a new subscriber also delivers whatever the main thread emits meanwhile, to every
  /// subscriber. Subscribing only on the main thread keeps every delivery there, including the
  /// ones to `drive` and `emit` closures, which are `@MainActor`.
  init(_ source: Observable<Element>) {
    let shared = SourceBox(SharingStrategy.share(source))
    guard SharingStrategy.scheduler is MainScheduler else {
      // A test's mock scheduler (`SharingScheduler.mock`) or a strategy of its own: subscribe
      // where the subscriber is, as RxCocoa always does.
      self.source = shared.source
      return
    }
    self.source = Observable.create { observer in
      if MainQueueCheck.isMain { return shared.source.subscribeAny(observer) }
      let subscription = SingleAssignmentDisposable()
      DispatchQueue.main.async {
        guard !subscription.isDisposed else { return }
        subscription.setDisposable(shared.source.subscribeAny(observer))
      }
      return subscription
    }
  }

  /// The shared observable; it never fails and delivers on the main thread.
  ///
  /// ```swift
  /// let observable: Observable<String> = title.asObservable()
  /// ```
  public func asObservable() -> Observable<Element> { source }

  /// Returns `self`.
  public func asSharedSequence() -> SharedSequence<SharingStrategy, Element> { self }
}

/// A ``SharedSequence`` that replays its latest element to new subscribers: RxCocoa's `Driver`,
/// for UI state.
///
/// ```swift
/// let count = countRelay.asDriver()
/// count.map { "\($0) items" }.drive(label.rx.text).disposed(by: bag)
/// ```
public typealias Driver<Element> = SharedSequence<DriverSharingStrategy, Element>

/// A ``SharedSequence`` that replays nothing: RxCocoa's `Signal`, for UI events.
///
/// ```swift
/// let taps = tapRelay.asSignal()
/// taps.emit(onNext: { print("tapped") }).disposed(by: bag)
/// ```
public typealias Signal<Element> = SharedSequence<SignalSharingStrategy, Element>

extension SharedSequence {
  /// A shared sequence that emits `element` on the main thread and completes.
  ///
  /// ```swift
  /// let title = Driver.just("Settings")
  /// ```
  ///
  /// Subscribed on the main thread, it emits during the subscription. On another strategy
  /// scheduler (a test's ``SharingScheduler/mock(scheduler:action:)``) it subscribes on that
  /// scheduler, as RxCocoa does: with a `TestScheduler` subscribed at 200, it emits and completes
  /// at 201.
  public static func just(
    _ element: Element, file: StaticString = #fileID, line: UInt = #line
  ) -> SharedSequence<SharingStrategy, Element> where Element: Sendable {
    SharedSequence(
      Observable.just(element, file: file, line: line)
        .onSharingScheduler(SharingStrategy.scheduler, file: file, line: line))
  }

  /// A shared sequence that completes on the main thread.
  ///
  /// ```swift
  /// let nothing = Driver<String>.empty()
  /// ```
  ///
  /// Subscribes on the strategy's scheduler, as ``just(_:file:line:)`` does.
  public static func empty(
    file: StaticString = #fileID, line: UInt = #line
  ) -> SharedSequence<SharingStrategy, Element> {
    SharedSequence(
      Observable<Never>.empty(file: file, line: line)
        .onSharingScheduler(SharingStrategy.scheduler, file: file, line: line)
        .map(absurd, file: file, line: line))
  }

  /// A shared sequence that never emits nor completes.
  ///
  /// ```swift
  /// let idle = Signal<Void>.never()
  /// ```
  public static func never(
    file: StaticString = #fileID, line: UInt = #line
  ) -> SharedSequence<SharingStrategy, Element> {
    SharedSequence(Observable.never(file: file, line: line))
  }
}

extension SharedSequence where Element: FixedWidthInteger & Sendable {
  /// Emits 0, 1, 2, ... every `period` on the strategy's scheduler (``SharingScheduler/make``),
  /// as RxCocoa's `Driver<Int>.interval`.
  ///
  /// ```swift
  /// let ticks = Driver<Int>.interval(.seconds(2))
  /// // subscribed at 0:  --0-1-2-...   (one frame a second; on the main thread)
  /// ```
  ///
  /// Never completes; shared with the strategy (the timer runs once for all subscribers while
  /// any is connected); the last subscriber's disposal stops it.
  ///
  /// - Parameters:
  ///   - period: The time between elements; the first comes one `period` after the
  ///     first subscription.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  public static func interval(
    _ period: RxTimeInterval, file: StaticString = #fileID, line: UInt = #line
  ) -> SharedSequence<SharingStrategy, Element> {
    SharedSequence(
      Observable.interval(period, scheduler: SharingStrategy.scheduler, file: file, line: line))
  }

  /// Emits 0 after `dueTime`, then 1, 2, ... every `period`, on the strategy's scheduler, as
  /// RxCocoa's `Driver<Int>.timer(_:period:)`.
  ///
  /// ```swift
  /// let countdown = Driver<Int>.timer(.seconds(3), period: .seconds(2))
  /// // subscribed at 0:  ---0-1-2-...   (one frame a second)
  /// ```
  ///
  /// Never completes; shared as ``interval(_:file:line:)`` is.
  ///
  /// - Parameters:
  ///   - dueTime: The time before the first element.
  ///   - period: The time between later elements.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  public static func timer(
    _ dueTime: RxTimeInterval, period: RxTimeInterval,
    file: StaticString = #fileID, line: UInt = #line
  ) -> SharedSequence<SharingStrategy, Element> {
    SharedSequence(
      Observable.timer(
        dueTime, period: period, scheduler: SharingStrategy.scheduler, file: file, line: line))
  }
}

extension SharedSequenceConvertibleType where SharingStrategy == DriverSharingStrategy {
  /// Returns `self`.
  ///
  /// ```swift
  /// let driver: Driver<Int> = count.asDriver()
  /// ```
  public func asDriver() -> Driver<Element> { asSharedSequence() }
}

extension SharedSequenceConvertibleType where SharingStrategy == SignalSharingStrategy {
  /// Returns `self`.
  ///
  /// ```swift
  /// let signal: Signal<Void> = taps.asSignal()
  /// ```
  public func asSignal() -> Signal<Element> { asSharedSequence() }
}

extension Observable where Element: Sendable {
  /// A synchronous source moved to a shared sequence's scheduler: `subscribe(on:)`, as RxCocoa's
  /// `just` and `empty` do, except on the main scheduler, where `observe(on:)` keeps a later
  /// shared sequence's delivery synchronous (`subscribe(on:)` would leave its disposal queued on
  /// the main queue, and the main scheduler then queues whatever follows behind it).
  func onSharingScheduler(
    _ scheduler: any SchedulerType, file: StaticString, line: UInt
  ) -> Observable<Element> {
    if scheduler is MainScheduler { return observe(on: scheduler, file: file, line: line) }
    return subscribe(on: scheduler, file: file, line: line)
  }
}

extension ObservableConvertibleType {
  /// Converts a source to a shared sequence: delivers on the main thread, recovers from errors
  /// with `recover` (which runs on the main thread) and shares with `Strategy`.
  func sharedSequence<Strategy: SharingStrategyProtocol>(
    _: Strategy.Type, file: StaticString, line: UInt,
    recover: @escaping (any Error) -> Observable<Element>
  ) -> SharedSequence<Strategy, Element> where Element: Sendable {
    let onMain = asObservable().observe(on: Strategy.scheduler, file: file, line: line)
    return SharedSequence(onMain.catch(recover, file: file, line: line))
  }
}
