import Testing

@testable import Streams

/// The transitions of ``MergeStateMachine`` one by one, then the operators that run on it
/// (`merge`, `flatMap`, `flatMapFirst`, `concatMap`) where its states meet re-entrancy, the limit,
/// the outer completion and disposal.
@Suite("MergeStateMachine")
struct MergeStateMachineTests: HandedBackNaming {
  typealias Machine = MergeStateMachine<Int>

  /// A subscription the tests recognize by name.
  final class Named: Disposable {
    let name: String
    init(_ name: String) { self.name = name }
    func dispose() {}
  }

  static var source: Observable<Int> { .never() }

  static func name(_ disposable: (any Disposable)?) -> String {
    disposable.map { ($0 as? Named)?.name ?? "?" } ?? "nil"
  }

  static func text(_ action: Machine.SubscribedAction) -> String {
    switch action {
    case .keep: "keep"
    case .dispose(let disposable): "dispose \(name(disposable))"
    }
  }

  static func text(_ action: Machine.NextInnerAction) -> String {
    switch action {
    case .stop: "stop"
    case .subscribe(let id, _): "subscribe \(id)"
    }
  }

  static func text(_ action: Machine.ForwardAction) -> String {
    switch action {
    case .drop: "drop"
    case .drain(let event): "drain \(name(event))"
    }
  }

  static func text(_ action: Machine.CompletedAction) -> String {
    switch action {
    case .none: "none"
    case .dispose(let disposable): "dispose \(name(disposable))"
    case .runLoop(let disposable): "runLoop after \(name(disposable))"
    case .complete(let disposable, let event): "complete after \(name(disposable)), \(name(event))"
    }
  }

  static func text(_ action: Machine.ImmediateArrivedAction) -> String {
    switch action {
    case .none: "none"
    case .runLoop: "runLoop"
    case .deliver(let event): "deliver \(name(event))"
    }
  }

  static func text(_ action: Machine.ImmediateNextAction) -> String {
    switch action {
    case .deliver(let event): "deliver \(name(event))"
    case .completed(.none): "completed, none"
    case .completed(.runLoop): "completed, runLoop"
    case .completed(.complete(let event)): "completed, complete \(name(event))"
    }
  }

  @Test("an inner sequence is subscribed by the start loop; the outer completion ends the merge")
  func innerThenOuterCompletes() {
    var machine = Machine(limit: .unbounded)
    #expect(Self.text(machine.outerSubscribed(Named("outer"))) == "keep")
    #expect(machine.innerArrived(Self.source) == .runLoop)
    #expect(Self.text(machine.nextToStart()) == "subscribe 0")
    #expect(Self.text(machine.nextToStart()) == "stop")
    #expect(Self.text(machine.innerSubscribed(0, Named("inner 0"))) == "keep")
    #expect(Self.text(machine.innerNext(.next(1))) == "drain next(1)")
    #expect(machine.nextPending() == nil)
    #expect(Self.text(machine.outerCompleted()) == "dispose outer")
    #expect(!machine.hasEnded)
    #expect(Self.text(machine.innerCompleted(0)) == "complete after inner 0, completed")
    #expect(machine.hasEnded)
    #expect(Self.text(machine.innerNext(.next(2))) == "drop")
  }

  @Test("the outer sequence completing with no inner sequence completes the merge at once")
  func outerCompletesAlone() {
    var machine = Machine(limit: .unbounded)
    #expect(Self.text(machine.outerCompleted()) == "complete after nil, completed")
    #expect(Self.text(machine.outerSubscribed(Named("outer"))) == "dispose outer")
    var empty = Machine(limit: .unbounded)
    if case .complete(let event) = empty.subscribeAll([]) {
      #expect(Self.name(event) == "completed")
    } else {
      Issue.record("a static merge of no sources completes at once")
    }
  }

  @Test("an inner sequence that completes during subscribe is disposed when subscribe returns")
  func innerCompletesWhileSubscribed() {
    var machine = Machine(limit: .unbounded)
    #expect(machine.innerArrived(Self.source) == .runLoop)
    #expect(Self.text(machine.nextToStart()) == "subscribe 0")
    // An inner sequence arriving meanwhile waits for the loop that runs.
    #expect(machine.innerArrived(Self.source) == .none)
    #expect(Self.text(machine.innerCompleted(0)) == "none")
    #expect(Self.text(machine.innerSubscribed(0, Named("inner 0"))) == "dispose inner 0")
    #expect(Self.text(machine.nextToStart()) == "subscribe 1")
    #expect(Self.text(machine.nextToStart()) == "stop")
  }

  @Test("maxConcurrent: an inner sequence waits for a slot; a completion hands it the slot")
  func limitQueues() {
    var machine = Machine(limit: .queue(1))
    #expect(machine.innerArrived(Self.source) == .runLoop)
    #expect(Self.text(machine.nextToStart()) == "subscribe 0")
    #expect(Self.text(machine.nextToStart()) == "stop")
    #expect(Self.text(machine.innerSubscribed(0, Named("inner 0"))) == "keep")
    #expect(machine.innerArrived(Self.source) == .none)
    #expect(Self.text(machine.outerCompleted()) == "none")
    #expect(Self.text(machine.innerCompleted(0)) == "runLoop after inner 0")
    #expect(Self.text(machine.nextToStart()) == "subscribe 1")
    #expect(Self.text(machine.nextToStart()) == "stop")
    #expect(Self.text(machine.innerCompleted(1)) == "complete after nil, completed")
  }

  @Test("a just is delivered without subscribing when nothing starts; otherwise it is scheduled")
  func immediate() {
    var machine = Machine(limit: .unbounded)
    #expect(Self.text(machine.immediateArrived(Self.source, element: 1)) == "deliver next(1)")
    #expect(Self.text(machine.nextOrImmediateCompleted()) == "completed, none")
    #expect(machine.innerArrived(Self.source) == .runLoop)
    #expect(Self.text(machine.immediateArrived(Self.source, element: 2)) == "none")
    #expect(Self.text(machine.nextToStart()) == "subscribe 0")
    #expect(Self.text(machine.nextToStart()) == "subscribe 1")
    #expect(Self.text(machine.nextToStart()) == "stop")
    #expect(Self.text(machine.outerCompleted()) == "none")
    #expect(Self.text(machine.innerCompleted(0)) == "none")
    #expect(Self.text(machine.innerCompleted(1)) == "complete after nil, completed")
  }

  @Test("maxConcurrent: a just that completes hands its slot to a waiting sequence")
  func immediateHandsSlot() {
    var machine = Machine(limit: .queue(1))
    #expect(Self.text(machine.immediateArrived(Self.source, element: 1)) == "deliver next(1)")
    // Delivering the element: the outer sequence sends again, from inside `onNext`.
    #expect(machine.innerArrived(Self.source) == .none)
    #expect(Self.text(machine.nextOrImmediateCompleted()) == "completed, runLoop")
    #expect(Self.text(machine.nextToStart()) == "subscribe 0")
    #expect(Self.text(machine.nextToStart()) == "stop")
  }

  @Test("flatMapFirst: admitting an element reserves the one slot until its sequence completes")
  func admitReserves() {
    var machine = Machine(limit: .dropWhileBusy)
    #expect(machine.admit() == .select)
    #expect(machine.admit() == .drop)
    #expect(machine.innerArrived(Self.source) == .runLoop)
    #expect(Self.text(machine.nextToStart()) == "subscribe 0")
    #expect(Self.text(machine.nextToStart()) == "stop")
    #expect(Self.text(machine.innerCompleted(0)) == "none")
    #expect(machine.admit() == .select)
  }

  @Test("an error ends the merge: what follows is dropped, subscriptions are still disposed")
  func errorEnds() {
    var machine = Machine(limit: .unbounded)
    #expect(machine.innerArrived(Self.source) == .runLoop)
    #expect(Self.text(machine.nextToStart()) == "subscribe 0")
    #expect(Self.text(machine.innerFailed(MultiTestError.first)) == "drain error")
    #expect(machine.hasEnded)
    #expect(Self.text(machine.nextToStart()) == "stop")
    #expect(machine.innerArrived(Self.source) == .none)
    #expect(Self.text(machine.selectorFailed(MultiTestError.selector)) == "drop")
    #expect(Self.text(machine.outerFailed(MultiTestError.second)) == "drop")
    #expect(Self.text(machine.innerSubscribed(0, Named("inner 0"))) == "keep")
    #expect(Self.text(machine.innerCompleted(0)) == "dispose inner 0")
  }

  @Test("disposal hands back the outer and inner subscriptions in order, and what waits")
  func disposal() {
    var machine = Machine(limit: .queue(2))
    #expect(Self.text(machine.outerSubscribed(Named("outer"))) == "keep")
    for _ in 0..<2 { _ = machine.innerArrived(Self.source) }
    #expect(Self.text(machine.nextToStart()) == "subscribe 0")
    #expect(Self.text(machine.innerSubscribed(0, Named("inner 0"))) == "keep")
    // Inner sequence 1 is still scheduled, a third waits for a slot.
    #expect(machine.innerArrived(Self.source) == .none)
    switch machine.dispose() {
    case .dispose(let subscriptions, let queued, let waiting, let scheduled):
      #expect(subscriptions.map(Self.name) == ["outer", "inner 0"])
      #expect(queued.isEmpty && waiting.count == 1 && scheduled.count == 1)
    }
    #expect(machine.hasEnded)
    #expect(Self.text(machine.nextToStart()) == "stop")
    #expect(Self.text(machine.innerSubscribed(1, Named("inner 1"))) == "dispose inner 1")
    #expect(Self.text(machine.innerCompleted(0)) == "none")
    #expect(Self.text(machine.outerCompleted()) == "none")
  }

  @Test("a thread that does not own the start loop stepping it is an internal error")
  func startLoopOwnerTrap() async {
    await #expect(processExitsWith: .failure) {
      var machine = MergeStateMachine<Int>(limit: .unbounded)
      _ = machine.nextToStart()
    }
  }
}

// MARK: - The operators on the machine

extension MergeStateMachineTests {
  @Test("an inner sequence completing inside onNext completes the merge after the delivery")
  func innerCompletesInsideOnNext() {
    let log = ScenarioLog()
    let outer = PublishSubject<Observable<Int>>()
    let inner = DirectInner("inner", log: log)
    _ = outer.merge().subscribe(
      onNext: { value in
        log.add("next \(value)")
        inner.complete()
        log.add("end \(value)")
      },
      onCompleted: { log.add("completed") })
    outer.onNext(inner.observable)
    outer.onCompleted()
    inner.send(1)
    #expect(log.lines == ["inner subscribed", "next 1", "inner disposed", "end 1", "completed"])
  }

  @Test("an inner sequence failing inside onNext fails the merge after the delivery")
  func innerFailsInsideOnNext() {
    let log = ScenarioLog()
    let outer = PublishSubject<Observable<Int>>()
    let a = DirectInner("a", log: log)
    let b = DirectInner("b", log: log)
    _ = outer.merge().subscribe(
      onNext: { value in
        log.add("next \(value)")
        b.fail()
        a.send(2)
        log.add("end \(value)")
      },
      onError: { log.add("error \($0)") })
    outer.onNext(a.observable)
    outer.onNext(b.observable)
    a.send(1)
    #expect(
      log.lines == [
        "a subscribed", "b subscribed", "next 1", "b disposed", "end 1", "error first",
        "a disposed",
      ])
    #expect(!outer.hasObservers)
  }

  @Test("maxConcurrent: a third sequence waits for a slot; the outer completion waits for all")
  func limitQueuesSequences() {
    let log = ScenarioLog()
    let outer = PublishSubject<Observable<Int>>()
    let a = DirectInner("a", log: log)
    let b = DirectInner("b", log: log)
    let c = DirectInner("c", log: log)
    _ = outer.merge(maxConcurrent: 2).subscribe(
      onNext: { log.add("next \($0)") }, onCompleted: { log.add("completed") })
    outer.onNext(a.observable)
    outer.onNext(b.observable)
    outer.onNext(c.observable)
    outer.onCompleted()
    a.complete()
    b.send(2)
    c.send(3)
    b.complete()
    c.complete()
    #expect(
      log.lines == [
        "a subscribed", "b subscribed", "a disposed", "c subscribed", "next 2", "next 3",
        "b disposed", "c disposed", "completed",
      ])
  }

  @Test(
    "the outer sequence completing inside the selector, while an inner sequence runs",
    arguments: InnerKind.allCases)
  func selectorCompletesOuter(kind: InnerKind) {
    let log = ScenarioLog()
    let outer = ManualOuter(log: log)
    let live = PublishSubject<Int>()
    var events: [Event<Int>] = []
    _ = outer.observable.flatMap { value -> Observable<Int> in
      if value == 1 { return live.asObservable() }
      outer.complete()  // reaches the operator re-entrantly, before this inner sequence
      return kind.make(value)
    }
    .subscribe { events.append($0) }
    outer.send(1)
    outer.send(2)
    #expect(events == [.next(2)])
    #expect(log.lines == ["outer disposed"])
    live.onNext(10)
    live.onCompleted()
    #expect(events == [.next(2), .next(10), .completed])
  }

  @Test("disposal while an inner sequence is being subscribed: the ones scheduled never start")
  func disposedWhileSubscribing() {
    let log = ScenarioLog()
    let outer = ManualOuter(log: log)
    let slot = SubscriptionSlot()
    let second = DirectInner("second", log: log)
    let first = Observable<Int>.create { _ in
      outer.send(2)  // scheduled behind this subscription
      slot.disposable?.dispose()
      return Disposables.create { log.add("first disposed") }
    }
    slot.disposable = outer.observable.flatMap { $0 == 1 ? first : second.observable }
      .subscribe(onNext: { log.add("next \($0)") })
    outer.send(1)
    #expect(log.lines == ["outer disposed", "first disposed"])
  }
}

// MARK: - Lifetimes

extension MergeStateMachineTests {
  typealias Token = SubscriptionLifetimeTests.Token
  typealias End = SubscriptionLifetimeTests.End

  /// A `concatMap` with a running and a waiting inner sequence, ended as `end` says; returns what
  /// the caller keeps (the disposable and both subjects) and the tokens held by the selector, the
  /// observer, the running and the waiting sequence, which the end must release.
  static func runAndEnd(_ end: End) -> (kept: [Any], tokens: [() -> Token?]) {
    let outer = PublishSubject<Int>()
    let running = PublishSubject<Int>()
    let kept: any Disposable
    let watched: [() -> Token?]
    do {
      let tokens = (0..<4).map { _ in Token() }
      watched = tokens.map { token in { [weak token] in token } }
      let runningSource = Observable<Int>.create { observer in
        withExtendedLifetime(tokens[2]) {}
        return running.subscribe(observer)
      }
      let waitingSource = Observable<Int>.create { observer in
        withExtendedLifetime(tokens[3]) {}
        observer.onCompleted()
        return Disposables.create()
      }
      kept = outer.concatMap { value -> Observable<Int> in
        withExtendedLifetime(tokens[0]) {}
        return value == 1 ? runningSource : waitingSource
      }
      .subscribe(onNext: { _ in withExtendedLifetime(tokens[1]) {} }, onError: { _ in })
      outer.onNext(1)
      outer.onNext(2)
      running.onNext(10)
    }
    switch end {
    case .dispose: kept.dispose()
    case .fail: running.onError(MultiTestError.first)
    case .complete:
      outer.onCompleted()
      running.onCompleted()
    }
    return ([kept, outer, running], watched)
  }

  @Test(
    "everything is released after the end, while the disposable and the subjects are kept",
    arguments: End.allCases)
  func releasedAfterEnd(end: End) {
    let (kept, tokens) = Self.runAndEnd(end)
    #expect(tokens.map { $0() == nil } == [true, true, true, true])
    withExtendedLifetime(kept) {}
  }

  @Test("no tracked object is left after the end")
  func noResourcesLeft() async {
    await #expect(processExitsWith: .success) {
      let before = Resources.total
      for end in End.allCases { _ = MergeStateMachineTests.runAndEnd(end) }
      precondition(Resources.total == before, "leaked \(Resources.total - before) objects")
    }
  }
}
