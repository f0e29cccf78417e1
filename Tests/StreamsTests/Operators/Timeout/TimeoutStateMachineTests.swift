import StreamsTest
import Testing

@testable import Streams

/// The transitions of ``TimeoutStateMachine`` one by one, then the operator where its states
/// meet re-entrancy and disposal with a timer scheduled, what an ended subscription lets go, and
/// its traps.
@Suite("TimeoutStateMachine")
struct TimeoutStateMachineTests: HandedBackNaming {
  typealias Machine = TimeoutStateMachine<Int>

  static func text(_ action: Machine.SourceAction) -> String {
    switch action {
    case .drop: "drop"
    case .drain(let event): "drain \(name(event))"
    case .drainAndStartTimer(let event, let timer): "drain \(name(event)), start \(timer)"
    }
  }

  static func text(_ action: Machine.TimerAction) -> String {
    switch action {
    case .none: "none"
    case .switchToOther: "switch"
    }
  }

  static func text(_ action: Machine.OtherAction) -> String {
    switch action {
    case .drop: "drop"
    case .drain(let event): "drain \(name(event))"
    }
  }

  @Test("each element starts the next timer; the latest one firing switches to the other")
  func transitionsSwitch() {
    var machine = Machine()
    #expect(Self.text(machine.sourceSent(.next(1))) == "drain next(1), start 1")
    #expect(machine.timerStarting(1) == .start)
    // Sent while 1 is delivered: queued behind it.
    #expect(Self.text(machine.sourceSent(.next(2))) == "drain nil, start 2")
    #expect(machine.timerStarting(1) == .skip)  // 2's, started re-entrantly, stays
    #expect(machine.timerStarting(2) == .start)
    machine = Machine()
    #expect(Self.text(machine.sourceSent(.next(1))) == "drain next(1), start 1")
    #expect(Self.name(machine.nextPending()) == "nil")
    #expect(Self.text(machine.timerFired(0)) == "none")  // stale
    #expect(Self.text(machine.timerFired(1)) == "switch")
    #expect(Self.text(machine.sourceSent(.next(2))) == "drop")  // the source is being disposed
    #expect(Self.text(machine.timerFired(1)) == "none")
    #expect(Self.text(machine.otherSent(.next(9))) == "drain next(9)")
    #expect(Self.text(machine.otherSent(.completed)) == "drain nil")  // queued behind 9
    #expect(Self.name(machine.nextPending()) == "completed")
    #expect(Self.name(machine.nextPending()) == "nil")
    #expect(Self.text(machine.otherSent(.next(10))) == "drop")
  }

  @Test("the source ending in time starts no timer; a timer then fires for nothing")
  func transitionsSourceEnds() {
    for event in [Event<Int>.completed, .error(MultiTestError.first)] {
      var machine = Machine()
      #expect(Self.text(machine.sourceSent(.next(1))) == "drain next(1), start 1")
      #expect(Self.name(machine.nextPending()) == "nil")
      #expect(Self.text(machine.sourceSent(event)) == "drain \(Self.name(event))")
      #expect(Self.name(machine.nextPending()) == "nil")
      #expect(Self.text(machine.timerFired(1)) == "none")
      #expect(Self.text(machine.sourceSent(.next(2))) == "drop")
    }
  }

  @Test("an element sent re-entrantly keeps its timer: the earlier one does not replace it")
  func reentrantElementKeepsItsTimer() {
    let scheduler = CountingScheduler()
    let log = ScenarioLog()
    let source = HandSource(log: log, name: "source")
    var lines: [String] = []
    _ = source.observable.timeout(.seconds(10), other: Observable.just(99), scheduler: scheduler)
      .subscribe(onNext: { value in
        lines.append("\(value) at \(scheduler.base.clock)")
        if value == 1 { source.send(2) }  // queued behind 1, delivered before 1's timer starts
      })
    scheduler.base.advanceTo(5)
    source.send(1)
    scheduler.base.advanceTo(100)
    // 2's timer, started at 5, fires at 15: other runs.
    #expect(lines == ["1 at 5", "2 at 5", "99 at 15"])
    #expect(scheduler.liveTimers == 0)
  }

  @Test("a timer that was never started firing is an internal error")
  func futureTimerTrap() async {
    await #expect(processExitsWith: .failure) {
      var machine = TimeoutStateMachine<Int>()
      _ = machine.timerFired(1)
    }
  }

  @Test("the other sequence sending before the timeout is an internal error")
  func otherBeforeTimeoutTrap() async {
    await #expect(processExitsWith: .failure) {
      var machine = TimeoutStateMachine<Int>()
      _ = machine.otherSent(.next(1))
    }
  }
}

// MARK: - The operator on the machine

extension TimeoutStateMachineTests {
  @Test(
    "the running sequence ending from inside the observer ends it after what it queued",
    arguments: ["source", "other"])
  func reentrantEnd(sequence: String) {
    let scheduler = CountingScheduler()
    let log = ScenarioLog()
    let source = HandSource(log: log, name: "source")
    let other = HandSource(log: log, name: "other")
    let running = sequence == "source" ? source : other
    var lines: [String] = []
    _ = source.observable.timeout(.seconds(10), other: other.observable, scheduler: scheduler)
      .subscribe(
        onNext: { value in
          lines.append("\(value) at \(scheduler.base.clock)")
          guard value == 1 else { return }
          running.send(2)  // queued behind this element
          running.complete()
          running.send(3)  // after the end: dropped
          lines.append("after 1")
        }, onCompleted: { lines.append("completed at \(scheduler.base.clock)") })
    if sequence == "other" { scheduler.base.advanceTo(10) }  // the timeout: other runs
    running.send(1)
    scheduler.base.advanceTo(100)
    let time = sequence == "other" ? 10 : 0
    #expect(lines == ["1 at \(time)", "after 1", "2 at \(time)", "completed at \(time)"])
    let disposals = sequence == "other" ? ["source", "other"] : ["source"]
    #expect(log.lines == disposals.map { "\($0) disposed" })
    #expect(scheduler.liveTimers == 0)
  }

  @Test("disposal while a timer is scheduled cancels it; the other is never subscribed")
  func disposalWithTimerScheduled() {
    let scheduler = CountingScheduler()
    let log = ScenarioLog()
    let source = HandSource(log: log, name: "source")
    let other = HandSource(log: log, name: "other")
    var lines: [String] = []
    let subscription = source.observable.timeout(
      .seconds(10), other: other.observable, scheduler: scheduler
    )
    .subscribe(onNext: { lines.append("\($0)") })
    source.send(1)
    scheduler.base.advanceTo(5)
    #expect(scheduler.liveTimers == 1)
    subscription.dispose()
    #expect(scheduler.liveTimers == 0)
    scheduler.base.advanceTo(100)
    #expect(lines == ["1"])
    #expect(log.lines == ["source disposed"])
  }

  @Test("disposal from inside the observer of the other sequence ends it")
  func disposalMidFlight() {
    let scheduler = CountingScheduler()
    let log = ScenarioLog()
    let source = HandSource(log: log, name: "source")
    let other = HandSource(log: log, name: "other")
    var lines: [String] = []
    var subscription: (any Disposable)?
    subscription = source.observable.timeout(
      .seconds(10), other: other.observable, scheduler: scheduler
    )
    .subscribe(
      onNext: { value in
        lines.append("\(value)")
        other.send(2)  // queued behind this element, then dropped by the disposal
        subscription?.dispose()
        other.send(3)  // after the disposal: dropped
      }, onCompleted: { lines.append("completed") })
    scheduler.base.advanceTo(10)
    other.send(1)
    scheduler.base.advanceTo(100)
    #expect(lines == ["1"])
    #expect(log.lines == ["source disposed", "other disposed"])
    #expect(scheduler.liveTimers == 0)
  }

  @Test(
    "an ended subscription lets go of its observer without disposal",
    arguments: ["source completes", "source fails", "times out"])
  func releaseAfterEnd(end: String) {
    final class Token {}
    let scheduler = CountingScheduler()
    let source = PublishSubject<Int>()
    weak var weakToken: Token?
    var subscription: (any Disposable)?
    do {
      let token = Token()
      weakToken = token
      subscription = source.timeout(.seconds(10), scheduler: scheduler).subscribe(
        onNext: { _ in withExtendedLifetime(token) {} }, onError: { _ in })
      source.onNext(1)
    }
    #expect(weakToken != nil)
    switch end {
    case "source completes": source.onCompleted()
    case "source fails": source.onError(MultiTestError.first)
    default: scheduler.base.advanceTo(100)
    }
    #expect(weakToken == nil)
    #expect(!source.hasObservers)
    #expect(scheduler.liveTimers == 0)
    withExtendedLifetime(subscription) {}
  }
}
