import Dispatch

/// How a ``SharedSequence`` shares its source among subscribers: RxCocoa's sharing strategy.
///
/// RxCocoa's protocol also names the scheduler elements are delivered on (`MainScheduler`);
/// Streams' shared sequences always deliver through `observe(on: MainScheduler.instance)`, so the
/// protocol only describes the sharing.
public protocol SharingStrategyProtocol {
  /// Shares `source` among the subscribers of a shared sequence.
  static func share<Element>(_ source: Observable<Element>) -> Observable<Element>
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
  /// Subscribed on the main thread, it emits during the subscription.
  public static func just(
    _ element: Element, file: StaticString = #fileID, line: UInt = #line
  ) -> SharedSequence<SharingStrategy, Element> where Element: Sendable {
    SharedSequence(
      Observable.just(element, file: file, line: line)
        .observe(on: MainScheduler.instance, file: file, line: line))
  }

  /// A shared sequence that completes on the main thread.
  ///
  /// ```swift
  /// let nothing = Driver<String>.empty()
  /// ```
  public static func empty(
    file: StaticString = #fileID, line: UInt = #line
  ) -> SharedSequence<SharingStrategy, Element> {
    SharedSequence(
      Observable<Never>.empty(file: file, line: line)
        .observe(on: MainScheduler.instance, file: file, line: line)
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

extension ObservableConvertibleType {
  /// Converts a source to a shared sequence: delivers on the main thread, recovers from errors
  /// with `recover` (which runs on the main thread) and shares with `Strategy`.
  func sharedSequence<Strategy: SharingStrategyProtocol>(
    _: Strategy.Type, file: StaticString, line: UInt,
    recover: @escaping (any Error) -> Observable<Element>
  ) -> SharedSequence<Strategy, Element> where Element: Sendable {
    let onMain = asObservable().observe(on: MainScheduler.instance, file: file, line: line)
    return SharedSequence(onMain.catch(recover, file: file, line: line))
  }
}
