import StreamsTest
import Testing

@testable import Streams

/// The transitions of ``DelayStateMachine`` one by one, then the operator where its states meet
/// re-entrancy and disposal with a timer scheduled, what an ended subscription lets go, and a
/// trap.
@Suite("DelayStateMachine")
struct DelayStateMachineTests: HandedBackNaming {
  typealias Machine = DelayStateMachine<Int>

  static func text(_ action: Machine.ReceivedAction) -> String {
    switch action {
    case .queued: "queued"
    case .startTimer(let wait): "start after \(wait)"
    case .drop: "drop"
    }
  }

  static func text(_ action: Machine.TimerAction) -> String {
    switch action {
    case .none: "none"
    case .drain(let event): "drain \(name(event))"
    case .drainAndSchedule(let event, let wait): "drain \(name(event)), again after \(wait)"
    }
  }

  @Test("events wait dueTime after they arrived, one timer at a time; the completion too")
  func transitions() {
    var machine = Machine(dueTime: 100)
    #expect(Self.text(machine.received(1, at: 0)) == "start after 100")
    #expect(Self.text(machine.received(2, at: 30)) == "queued")
    #expect(Self.text(machine.timerFired(at: 100)) == "drain next(1), again after 30")
    #expect(Self.name(machine.nextPending()) == "nil")
    #expect(Self.text(machine.timerFired(at: 130)) == "drain next(2)")
    #expect(Self.name(machine.nextPending()) == "nil")
    // Nothing waits: the next event starts the timer again.
    #expect(Self.text(machine.received(3, at: 150)) == "start after 100")
    #expect(Self.text(machine.completed(at: 160)) == "queued")
    #expect(Self.text(machine.received(4, at: 170)) == "drop")  // after the completion
    #expect(Self.text(machine.timerFired(at: 260)) == "drain next(3), again after 0")
    #expect(Self.name(machine.nextPending()) == "nil")
    #expect(Self.text(machine.timerFired(at: 260)) == "drain completed")
    #expect(Self.name(machine.nextPending()) == "nil")
    #expect(Self.text(machine.timerFired(at: 300)) == "none")
    #expect(Self.text(machine.completed(at: 300)) == "drop")
    switch machine.failed(MultiTestError.first) {
    case .none: break
    case .drain: Issue.record("an error after the end must do nothing")
    }
  }

  @Test("an error is emitted at once and drops the waiting events; the timer then does nothing")
  func failureDropsWaiting() {
    var machine = Machine(dueTime: 100)
    #expect(Self.text(machine.received(1, at: 0)) == "start after 100")
    #expect(Self.text(machine.received(2, at: 10)) == "queued")
    #expect(Self.text(machine.completed(at: 20)) == "queued")
    switch machine.failed(MultiTestError.first) {
    case .drain(let event, let dropped):
      #expect(Self.name(event) == "error")
      #expect(dropped.count == 3)
    case .none:
      Issue.record("the error must be emitted")
    }
    #expect(Self.name(machine.nextPending()) == "nil")
    #expect(Self.text(machine.timerFired(at: 100)) == "none")
    #expect(Self.text(machine.received(3, at: 110)) == "drop")
  }

  @Test("a timer firing with nothing waiting is an internal error")
  func idleTimerTrap() async {
    await #expect(processExitsWith: .failure) {
      var machine = DelayStateMachine<Int>(dueTime: 100)
      _ = machine.timerFired(at: 0)
    }
  }
}

// MARK: - The operator on the machine

extension DelayStateMachineTests {
  @Test(
    "a source ending from inside the observer: a completion waits its turn, an error does not",
    arguments: [false, true])
  func reentrantEnd(fails: Bool) {
    let scheduler = CountingScheduler()
    let log = ScenarioLog()
    let source = HandSource(log: log)
    var lines: [String] = []
    _ = source.observable.delay(.seconds(10), scheduler: scheduler).subscribe(
      onNext: { value in
        lines.append("\(value) at \(scheduler.base.clock)")
        guard value == 1 else { return }
        source.send(2)  // waits its 10 seconds
        if fails { source.fail(MultiTestError.first) } else { source.complete() }
        source.send(3)  // after the end: dropped
        lines.append("after 1")
      }, onError: { _ in lines.append("failed at \(scheduler.base.clock)") },
      onCompleted: { lines.append("completed at \(scheduler.base.clock)") })
    source.send(1)
    scheduler.base.advanceTo(100)
    // The completion is due with 2 (it arrived at the same tick); the test scheduler runs a
    // timer due now one tick later.
    let end = fails ? ["failed at 10"] : ["2 at 20", "completed at 21"]
    #expect(lines == ["1 at 10", "after 1"] + end)
    #expect(log.lines == ["source disposed"])
    #expect(scheduler.liveTimers == 0)
  }

  @Test("disposal while a timer is scheduled cancels it and lets go of the waiting elements")
  func disposalWithTimerScheduled() {
    final class Box: Sendable {}
    let scheduler = CountingScheduler()
    let source = PublishSubject<Box>()
    weak var weakWaiting: Box?
    var received = 0
    let subscription = source.delay(.seconds(10), scheduler: scheduler)
      .subscribe(onNext: { _ in received += 1 })
    do {
      let waiting = Box()
      weakWaiting = waiting
      source.onNext(waiting)
    }
    scheduler.base.advanceTo(5)
    #expect(scheduler.liveTimers == 1)
    subscription.dispose()
    #expect(scheduler.liveTimers == 0)
    #expect(!source.hasObservers)
    #expect(weakWaiting == nil)
    scheduler.base.advanceTo(100)
    #expect(received == 0)
  }

  @Test("disposal from inside the observer drops the waiting events")
  func disposalMidFlight() {
    let scheduler = CountingScheduler()
    let log = ScenarioLog()
    let source = HandSource(log: log)
    var lines: [String] = []
    var subscription: (any Disposable)?
    subscription = source.observable.delay(.seconds(10), scheduler: scheduler).subscribe(
      onNext: { value in
        lines.append("\(value)")
        source.send(2)  // waits; its timer is cancelled by the disposal
        subscription?.dispose()
        source.send(3)  // after the disposal: dropped
      }, onCompleted: { lines.append("completed") })
    source.send(1)
    scheduler.base.advanceTo(100)
    #expect(lines == ["1"])
    #expect(log.lines == ["source disposed"])
    #expect(scheduler.liveTimers == 0)
  }

  @Test(
    "an ended subscription lets go of its observer and the waiting elements without disposal",
    arguments: [false, true])
  func releaseAfterEnd(fails: Bool) {
    final class Token {}
    final class Box: Sendable {}
    let scheduler = CountingScheduler()
    let source = PublishSubject<Box>()
    weak var weakToken: Token?
    weak var weakWaiting: Box?
    var subscription: (any Disposable)?
    do {
      let token = Token()
      let waiting = Box()
      weakToken = token
      weakWaiting = waiting
      subscription = source.delay(.seconds(10), scheduler: scheduler).subscribe(
        onNext: { _ in withExtendedLifetime(token) {} }, onError: { _ in })
      source.onNext(waiting)
    }
    #expect(weakToken != nil && weakWaiting != nil)
    if fails {
      source.onError(MultiTestError.first)
    } else {
      source.onCompleted()
      #expect(weakWaiting != nil)  // the completion waits behind it
      scheduler.base.advanceTo(100)
    }
    #expect(weakToken == nil)
    #expect(weakWaiting == nil)
    #expect(scheduler.liveTimers == 0)
    withExtendedLifetime(subscription) {}
  }
}
