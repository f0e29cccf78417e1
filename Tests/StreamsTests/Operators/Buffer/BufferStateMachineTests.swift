import StreamsTest
import Testing

@testable import Streams

/// The transitions of ``BufferStateMachine`` one by one, then the operator where its states meet
/// re-entrancy and disposal with a timer scheduled, what an ended subscription lets go, and a
/// trap.
@Suite("BufferStateMachine")
struct BufferStateMachineTests: HandedBackNaming {
  typealias Machine = BufferStateMachine<Int>

  /// A timer the tests recognize by name.
  final class Named: Disposable {
    let name: String
    init(_ name: String) { self.name = name }
    func dispose() {}
  }

  typealias Element = [Int]

  static func text(_ action: Machine.StepAction) -> String {
    switch action {
    case .none: "none"
    case .drain(let event): "drain \(name(event))"
    case .drainAndStartTimer(let event, let window): "drain \(name(event)), start \(window)"
    }
  }

  static func text(_ action: Machine.TimerAction) -> String {
    switch action {
    case .none: "none"
    case .dispose(let timer): "dispose \((timer as? Named)?.name ?? "?")"
    }
  }

  @Test("a full buffer or a time span's end opens the next window; only its timer is installed")
  func transitions() {
    var machine = Machine(limit: 2)
    #expect(Self.text(machine.timerScheduled(0, Named("t0"))) == "none")
    #expect(Self.text(machine.received(1)) == "none")
    #expect(Self.text(machine.received(2)) == "drain next([1, 2]), start 1")
    #expect(Self.name(machine.nextPending()) == "nil")
    #expect(Self.text(machine.timerFired(0)) == "none")  // its window filled up
    #expect(Self.text(machine.timerScheduled(1, Named("t1"))) == "dispose t0")
    #expect(Self.text(machine.timerFired(1)) == "drain next([]), start 2")
    #expect(Self.name(machine.nextPending()) == "nil")
    // A stale timer scheduled late does not replace the open window's.
    #expect(Self.text(machine.timerScheduled(2, Named("t2"))) == "dispose t1")
    #expect(Self.text(machine.timerScheduled(1, Named("late"))) == "dispose late")
    #expect(Self.text(machine.received(3)) == "none")
    #expect(Self.text(machine.completed()) == "drain next([3])")
    #expect(Self.name(machine.nextPending()) == "completed")
    #expect(Self.name(machine.nextPending()) == "nil")
    // Ended: nothing more is emitted; the timers run until stopped.
    #expect(Self.text(machine.timerFired(2)) == "none")
    #expect(Self.text(machine.received(4)) == "none")
    #expect(Self.text(machine.completed()) == "none")
    #expect(Self.text(machine.stopTimers()) == "dispose t2")
    switch machine.timerWillStart() {
    case .skip: break
    case .schedule: Issue.record("stopped timers must not be scheduled")
    }
    #expect(Self.text(machine.timerScheduled(2, Named("t3"))) == "dispose t3")
  }

  @Test("an error is emitted at once and drops the buffer")
  func failureDropsBuffer() {
    var machine = Machine(limit: 3)
    #expect(Self.text(machine.received(1)) == "none")
    #expect(Self.text(machine.received(2)) == "none")
    switch machine.failed(MultiTestError.first) {
    case .drain(let event, let dropped):
      #expect(Self.name(event) == "error" && dropped == [1, 2])
    case .none:
      Issue.record("the error must be emitted")
    }
    #expect(Self.name(machine.nextPending()) == "nil")
    #expect(Self.text(machine.timerFired(0)) == "none")
  }

  @Test("a timer of a window that never opened is an internal error")
  func futureTimerTrap() async {
    await #expect(processExitsWith: .failure) {
      var machine = BufferStateMachine<Int>(limit: 2)
      _ = machine.timerFired(1)
    }
  }
}

// MARK: - The operator on the machine

extension BufferStateMachineTests {
  @Test(
    "a source ending from inside the observer ends the sequence after what it queued",
    arguments: [false, true])
  func reentrantEnd(fails: Bool) {
    let scheduler = CountingScheduler()
    let log = ScenarioLog()
    let source = HandSource(log: log)
    var lines: [String] = []
    _ = source.observable.buffer(timeSpan: .seconds(10), count: 2, scheduler: scheduler)
      .subscribe(
        onNext: { buffer in
          lines.append("\(buffer)")
          guard buffer == [1, 2] else { return }
          source.send(3)  // joins the next buffer
          if fails { source.fail(MultiTestError.first) } else { source.complete() }
          source.send(4)  // after the end: dropped
          lines.append("after")
        }, onError: { _ in lines.append("failed") }, onCompleted: { lines.append("completed") })
    source.send(1)
    source.send(2)
    scheduler.base.advanceTo(100)
    let end = fails ? ["failed"] : ["[3]", "completed"]
    #expect(lines == ["[1, 2]", "after"] + end)
    #expect(log.lines == ["source disposed"])
    #expect(scheduler.liveTimers == 0)
  }

  @Test("disposal while a timer is scheduled cancels it and lets go of the buffer")
  func disposalWithTimerScheduled() {
    final class Box: Sendable {}
    let scheduler = CountingScheduler()
    let source = PublishSubject<Box>()
    weak var weakBuffered: Box?
    var received = 0
    let subscription = source.buffer(timeSpan: .seconds(10), count: 5, scheduler: scheduler)
      .subscribe(onNext: { _ in received += 1 })
    do {
      let buffered = Box()
      weakBuffered = buffered
      source.onNext(buffered)
    }
    scheduler.base.advanceTo(5)
    #expect(scheduler.liveTimers == 1)
    subscription.dispose()
    #expect(scheduler.liveTimers == 0)
    #expect(!source.hasObservers)
    #expect(weakBuffered == nil)
    scheduler.base.advanceTo(100)
    #expect(received == 0)
  }

  @Test("disposal from inside the observer stops the source and the timers")
  func disposalMidFlight() {
    let scheduler = CountingScheduler()
    let log = ScenarioLog()
    let source = HandSource(log: log)
    var lines: [String] = []
    var subscription: (any Disposable)?
    subscription = source.observable.buffer(
      timeSpan: .seconds(10), count: 1, scheduler: scheduler
    )
    .subscribe(
      onNext: { buffer in
        lines.append("\(buffer)")
        source.send(2)  // a full buffer, queued behind this one, then dropped by the disposal
        subscription?.dispose()
        source.send(3)  // after the disposal: dropped
      }, onCompleted: { lines.append("completed") })
    source.send(1)
    scheduler.base.advanceTo(100)
    #expect(lines == ["[1]"])
    #expect(log.lines == ["source disposed"])
    #expect(scheduler.liveTimers == 0)
  }

  @Test(
    "an ended subscription lets go of its observer and the buffer without disposal",
    arguments: [false, true])
  func releaseAfterEnd(fails: Bool) {
    final class Token {}
    final class Box: Sendable {}
    let scheduler = CountingScheduler()
    let source = PublishSubject<Box>()
    weak var weakToken: Token?
    weak var weakBuffered: Box?
    var subscription: (any Disposable)?
    do {
      let token = Token()
      let buffered = Box()
      weakToken = token
      weakBuffered = buffered
      subscription = source.buffer(timeSpan: .seconds(10), count: 5, scheduler: scheduler)
        .subscribe(onNext: { _ in withExtendedLifetime(token) {} }, onError: { _ in })
      source.onNext(buffered)
    }
    #expect(weakToken != nil && weakBuffered != nil)
    if fails { source.onError(MultiTestError.first) } else { source.onCompleted() }
    #expect(weakToken == nil)
    #expect(weakBuffered == nil)
    #expect(scheduler.liveTimers == 0)
    withExtendedLifetime(subscription) {}
  }
}
