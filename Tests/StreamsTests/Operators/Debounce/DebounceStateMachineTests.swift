import StreamsTest
import Testing

@testable import Streams

/// The transitions of ``DebounceStateMachine`` one by one, then the operator where its states
/// meet re-entrancy and disposal with a timer scheduled, what an ended subscription lets go, and
/// a trap.
@Suite("DebounceStateMachine")
struct DebounceStateMachineTests: HandedBackNaming {
  typealias Machine = DebounceStateMachine<Int>

  static func text(_ action: Machine.ReceivedAction) -> String {
    switch action {
    case .drop: "drop"
    case .schedule(let generation, let replaced):
      "schedule \(generation) releasing \(replaced ?? -1)"
    }
  }

  static func text(_ action: Machine.DrainAction) -> String {
    switch action {
    case .none: "none"
    case .drain(let event): "drain \(name(event))"
    }
  }

  static func text(_ action: Machine.FailedAction) -> String {
    switch action {
    case .none: "none"
    case .drain(let event, let dropped): "drain \(name(event)) dropping \(dropped ?? -1)"
    }
  }

  @Test("each element gets a generation; only the latest one's timer emits it")
  func transitions() {
    var machine = Machine()
    #expect(Self.text(machine.received(1)) == "schedule 1 releasing -1")
    #expect(Self.text(machine.received(2)) == "schedule 2 releasing 1")
    #expect(Self.text(machine.timerFired(1)) == "none")  // stale
    #expect(Self.text(machine.timerFired(2)) == "drain next(2)")
    #expect(Self.name(machine.nextPending()) == "nil")
    #expect(Self.text(machine.timerFired(2)) == "none")  // already emitted
    #expect(Self.text(machine.received(3)) == "schedule 3 releasing -1")
    #expect(Self.text(machine.completed()) == "drain next(3)")  // then the completion
    #expect(Self.name(machine.nextPending()) == "completed")
    #expect(Self.name(machine.nextPending()) == "nil")
    // Ended: nothing more is accepted, and the last timer fires for nothing.
    #expect(Self.text(machine.timerFired(3)) == "none")
    #expect(Self.text(machine.received(4)) == "drop")
    #expect(Self.text(machine.completed()) == "none")
    #expect(Self.text(machine.failed(MultiTestError.first)) == "none")
  }

  @Test("an error drops the waiting element; its timer then fires for nothing")
  func failureDropsWaiting() {
    var machine = Machine()
    #expect(Self.text(machine.received(1)) == "schedule 1 releasing -1")
    #expect(Self.text(machine.failed(MultiTestError.first)) == "drain error dropping 1")
    #expect(Self.name(machine.nextPending()) == "nil")
    #expect(Self.text(machine.timerFired(1)) == "none")
    #expect(Self.text(machine.received(2)) == "drop")
  }

  @Test("a timer of an element that never arrived is an internal error")
  func futureTimerTrap() async {
    await #expect(processExitsWith: .failure) {
      var machine = DebounceStateMachine<Int>()
      _ = machine.timerFired(1)
    }
  }
}

// MARK: - The operator on the machine

extension DebounceStateMachineTests {
  @Test(
    "a source ending from inside the observer ends the sequence after what it queued",
    arguments: [false, true])
  func reentrantEnd(fails: Bool) {
    let scheduler = CountingScheduler()
    let log = ScenarioLog()
    let source = HandSource(log: log)
    var lines: [String] = []
    _ = source.observable.debounce(.seconds(10), scheduler: scheduler).subscribe(
      onNext: { value in
        lines.append("\(value) at \(scheduler.base.clock)")
        guard value == 1 else { return }
        source.send(2)  // waits for its timer
        if fails { source.fail(MultiTestError.first) } else { source.complete() }
        source.send(3)  // after the end: dropped
        lines.append("after 1")
      }, onError: { _ in lines.append("failed at \(scheduler.base.clock)") },
      onCompleted: { lines.append("completed at \(scheduler.base.clock)") })
    source.send(1)
    scheduler.base.advanceTo(15)
    scheduler.base.advanceTo(100)
    // The completion emits the waiting element at once, after the delivery that queued it; an
    // error drops it.
    let end = fails ? ["failed at 10"] : ["2 at 10", "completed at 10"]
    #expect(lines == ["1 at 10", "after 1"] + end)
    #expect(log.lines == ["source disposed"])
    #expect(scheduler.liveTimers == 0)
  }

  @Test("disposal while a timer is scheduled cancels it and lets go of the waiting element")
  func disposalWithTimerScheduled() {
    final class Box: Sendable {}
    let scheduler = CountingScheduler()
    let source = PublishSubject<Box>()
    weak var weakWaiting: Box?
    var received = 0
    let subscription = source.debounce(.seconds(10), scheduler: scheduler)
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

  @Test("disposal from inside the observer drops what the source sends after it")
  func disposalMidFlight() {
    let scheduler = CountingScheduler()
    let log = ScenarioLog()
    let source = HandSource(log: log)
    var lines: [String] = []
    var subscription: (any Disposable)?
    subscription = source.observable.debounce(.seconds(10), scheduler: scheduler).subscribe(
      onNext: { value in
        lines.append("\(value)")
        source.send(2)  // its timer is scheduled, then cancelled by the disposal
        subscription?.dispose()
        source.complete()  // after the disposal: nothing reaches the observer
      }, onCompleted: { lines.append("completed") })
    source.send(1)
    scheduler.base.advanceTo(100)
    #expect(lines == ["1"])
    #expect(log.lines == ["source disposed"])
    #expect(scheduler.liveTimers == 0)
  }

  @Test(
    "an ended subscription lets go of its observer and the waiting element without disposal",
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
      subscription = source.debounce(.seconds(10), scheduler: scheduler).subscribe(
        onNext: { _ in withExtendedLifetime(token) {} }, onError: { _ in })
      source.onNext(waiting)
    }
    #expect(weakToken != nil && weakWaiting != nil)
    if fails { source.onError(MultiTestError.first) } else { source.onCompleted() }
    #expect(weakToken == nil)
    #expect(weakWaiting == nil)
    #expect(scheduler.liveTimers == 0)
    withExtendedLifetime(subscription) {}
  }
}
