import Streams

/// How a test makes an inner sequence that emits one element and completes while it is being
/// subscribed: `just` (which the merging operators deliver without subscribing to it) or the same
/// events from `create` (which they subscribe to). Every expectation must hold for both.
enum InnerKind: CaseIterable {
  case just
  case created

  func make(_ value: Int) -> Observable<Int> {
    switch self {
    case .just:
      return .just(value)
    case .created:
      return Observable.create { observer in
        observer.onNext(value)
        observer.onCompleted()
        return Disposables.create()
      }
    }
  }
}

/// What a scenario saw, in order.
final class ScenarioLog: Sendable {
  private let entries = Locked<[String]>([])

  var lines: [String] { entries.withLock { $0 } }

  func add(_ line: String) { entries.withLock { $0.append(line) } }

  /// Logs `name` when the trampoline of this thread runs a scheduled action: right away when no
  /// trampoline runs, otherwise after the running work.
  func schedule(_ name: String) {
    _ = CurrentThreadScheduler.instance.schedule(()) { [self] _ in
      add(name)
      return Disposables.create()
    }
  }
}

/// An outer sequence driven by hand, from the test or re-entrantly from an observer; disposing
/// its subscription logs "outer disposed".
final class ManualOuter {
  private var observer: AnyObserver<Int>?
  let log: ScenarioLog

  init(log: ScenarioLog) { self.log = log }

  var observable: Observable<Int> {
    Observable.create { [self] observer in
      self.observer = observer
      return Disposables.create { [log] in log.add("outer disposed") }
    }
  }

  func send(_ value: Int) { observer?.onNext(value) }
  func complete() { observer?.onCompleted() }
}

/// Holds a subscription so that an observer can dispose it.
final class SubscriptionSlot: Sendable {
  private let slot = Locked<(any Disposable)?>(nil)

  var disposable: (any Disposable)? {
    get { slot.withLock { $0 } }
    set { slot.withLock { $0 = newValue } }
  }
}

/// A source the test drives by hand, also from inside a delivery (a subject would queue such a
/// nested event instead of passing it on); its subscription and disposal are logged.
///
/// `@unchecked Sendable`: used by the test's thread only; `observer` is set while subscribing.
final class DirectInner: @unchecked Sendable {
  private var observer: AnyObserver<Int>?
  let name: String
  let log: ScenarioLog

  init(_ name: String, log: ScenarioLog) {
    self.name = name
    self.log = log
  }

  var observable: Observable<Int> {
    Observable.create { [self] observer in
      log.add("\(name) subscribed")
      self.observer = observer
      return Disposables.create { [log, name] in log.add("\(name) disposed") }
    }
  }

  func send(_ value: Int) { observer?.onNext(value) }
  func complete() { observer?.onCompleted() }
  func fail() { observer?.onError(MultiTestError.first) }
}
