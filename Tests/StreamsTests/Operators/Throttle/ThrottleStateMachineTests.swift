import StreamsTest
import Testing

@testable import Streams

/// The transitions of ``ThrottleStateMachine`` one by one, then the operator where its states
/// meet re-entrancy and disposal with a timer scheduled, what an ended subscription lets go, and
/// a trap.
@Suite("ThrottleStateMachine")
struct ThrottleStateMachineTests: HandedBackNaming {
  typealias Machine = ThrottleStateMachine<Int>

  static func text(_ action: Machine.ReceivedAction) -> String {
    switch action {
    case .drop: "drop"
    case .drain(let event, let replaced): "drain \(name(event)) releasing \(replaced ?? -1)"
    case .schedule(let wait): "schedule after \(wait)"
    case .release(let replaced): "release \(replaced)"
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

  @Test("latest: an element within the window is kept for its end; completion waits for it")
  func transitionsLatest() {
    var machine = Machine(dueTime: 100, latest: true)
    #expect(Self.text(machine.received(1, at: 0)) == "drain next(1) releasing -1")
    #expect(Self.name(machine.nextPending()) == "nil")
    #expect(Self.text(machine.received(2, at: 30)) == "schedule after 70")
    #expect(Self.text(machine.received(3, at: 50)) == "release 2")
    #expect(Self.text(machine.timerFired(at: 100)) == "drain next(3)")
    #expect(Self.name(machine.nextPending()) == "nil")
    #expect(Self.text(machine.timerFired(at: 110)) == "none")  // nothing kept
    #expect(Self.text(machine.received(4, at: 150)) == "schedule after 50")
    // Late timers: an element after the window is sent at once and supersedes the kept one.
    #expect(Self.text(machine.received(5, at: 250)) == "drain next(5) releasing 4")
    #expect(Self.name(machine.nextPending()) == "nil")
    #expect(Self.text(machine.timerFired(at: 260)) == "none")
    #expect(Self.text(machine.received(6, at: 300)) == "schedule after 50")
    #expect(Self.text(machine.completed()) == "none")  // waits for the kept element
    #expect(Self.text(machine.received(7, at: 320)) == "drop")
    #expect(Self.text(machine.timerFired(at: 350)) == "drain next(6)")
    #expect(Self.name(machine.nextPending()) == "completed")
    #expect(Self.name(machine.nextPending()) == "nil")
    #expect(Self.text(machine.timerFired(at: 400)) == "none")
    #expect(Self.text(machine.completed()) == "none")
    #expect(Self.text(machine.failed(MultiTestError.first)) == "none")
  }

  @Test("not latest: an element within the window is dropped")
  func transitionsNotLatest() {
    var machine = Machine(dueTime: 100, latest: false)
    #expect(Self.text(machine.received(1, at: 0)) == "drain next(1) releasing -1")
    #expect(Self.name(machine.nextPending()) == "nil")
    #expect(Self.text(machine.received(2, at: 99)) == "drop")
    #expect(Self.text(machine.received(3, at: 100)) == "drain next(3) releasing -1")
    #expect(Self.name(machine.nextPending()) == "nil")
    #expect(Self.text(machine.completed()) == "drain completed")
  }

  @Test("an error drops the kept element, also once the source completed")
  func failureDropsKept() {
    for completes in [false, true] {
      var machine = Machine(dueTime: 100, latest: true)
      #expect(Self.text(machine.received(1, at: 0)) == "drain next(1) releasing -1")
      #expect(Self.name(machine.nextPending()) == "nil")
      #expect(Self.text(machine.received(2, at: 10)) == "schedule after 90")
      if completes { #expect(Self.text(machine.completed()) == "none") }
      #expect(Self.text(machine.failed(MultiTestError.first)) == "drain error dropping 2")
      #expect(Self.name(machine.nextPending()) == "nil")
      #expect(Self.text(machine.timerFired(at: 100)) == "none")
    }
  }

  @Test("a timer firing before any element was sent is an internal error")
  func timerBeforeSendTrap() async {
    await #expect(processExitsWith: .failure) {
      var machine = ThrottleStateMachine<Int>(dueTime: 100, latest: true)
      _ = machine.timerFired(at: 0)
    }
  }
}

// MARK: - The operator on the machine

extension ThrottleStateMachineTests {
  @Test(
    "a source ending from inside the observer while an element is kept",
    arguments: [false, true])
  func reentrantEnd(fails: Bool) {
    let scheduler = CountingScheduler()
    let log = ScenarioLog()
    let source = HandSource(log: log)
    var lines: [String] = []
    _ = source.observable.throttle(.seconds(10), scheduler: scheduler).subscribe(
      onNext: { value in
        lines.append("\(value) at \(scheduler.base.clock)")
        guard value == 1 else { return }
        source.send(2)  // within the window: kept for its end
        if fails { source.fail(MultiTestError.first) } else { source.complete() }
        source.send(3)  // after the end: dropped
        lines.append("after 1")
      }, onError: { _ in lines.append("failed at \(scheduler.base.clock)") },
      onCompleted: { lines.append("completed at \(scheduler.base.clock)") })
    source.send(1)
    scheduler.base.advanceTo(100)
    // A completion waits for the kept element, emitted when the window ends; an error drops it.
    let end = fails ? ["failed at 0"] : ["2 at 10", "completed at 10"]
    #expect(lines == ["1 at 0", "after 1"] + end)
    #expect(log.lines == ["source disposed"])
    #expect(scheduler.liveTimers == 0)
  }

  @Test("disposal while a timer is scheduled cancels it and lets go of the kept element")
  func disposalWithTimerScheduled() {
    final class Box: Sendable {}
    let scheduler = CountingScheduler()
    let source = PublishSubject<Box>()
    weak var weakKept: Box?
    var received = 0
    let subscription = source.throttle(.seconds(10), scheduler: scheduler)
      .subscribe(onNext: { _ in received += 1 })
    source.onNext(Box())
    do {
      let kept = Box()
      weakKept = kept
      source.onNext(kept)
    }
    scheduler.base.advanceTo(5)
    #expect(scheduler.liveTimers == 1)
    subscription.dispose()
    #expect(scheduler.liveTimers == 0)
    #expect(!source.hasObservers)
    #expect(weakKept == nil)
    scheduler.base.advanceTo(100)
    #expect(received == 1)
  }

  @Test("disposal from inside the observer drops what the source sends after it")
  func disposalMidFlight() {
    let scheduler = CountingScheduler()
    let log = ScenarioLog()
    let source = HandSource(log: log)
    var lines: [String] = []
    var subscription: (any Disposable)?
    subscription = source.observable.throttle(.seconds(10), scheduler: scheduler).subscribe(
      onNext: { value in
        lines.append("\(value)")
        source.send(2)  // kept; its timer is cancelled by the disposal
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
    "an ended subscription lets go of its observer and the kept element without disposal",
    arguments: [false, true])
  func releaseAfterEnd(fails: Bool) {
    final class Token {}
    final class Box: Sendable {}
    let scheduler = CountingScheduler()
    let source = PublishSubject<Box>()
    weak var weakToken: Token?
    weak var weakKept: Box?
    var subscription: (any Disposable)?
    do {
      let token = Token()
      let kept = Box()
      weakToken = token
      weakKept = kept
      subscription = source.throttle(.seconds(10), scheduler: scheduler).subscribe(
        onNext: { _ in withExtendedLifetime(token) {} }, onError: { _ in })
      source.onNext(Box())
      source.onNext(kept)
    }
    #expect(weakToken != nil && weakKept != nil)
    if fails {
      source.onError(MultiTestError.first)
    } else {
      source.onCompleted()
      #expect(weakKept != nil)  // the completion waits for it
      scheduler.base.advanceTo(100)
    }
    #expect(weakToken == nil)
    #expect(weakKept == nil)
    #expect(scheduler.liveTimers == 0)
    withExtendedLifetime(subscription) {}
  }
}
