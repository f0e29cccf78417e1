import Streams
import StreamsTest
import Testing

private struct TestError: Error, Equatable {}

/// The transitions of ``WindowStateMachine``: a source that ends from inside an observer, disposal
/// while a window is being emitted, and what an ended subscription lets go (its timers).
@Suite("WindowStateMachine")
struct WindowStateMachineTests {
  @Test("a source completing from inside a window's observer ends it after what it queued")
  func reentrantCompletion() {
    let scheduler = CountingScheduler()
    let log = ScenarioLog()
    let source = HandSource(log: log)
    var lines: [String] = []
    _ = source.observable.window(timeSpan: .seconds(100), count: 3, scheduler: scheduler)
      .enumerated()
      .subscribe(
        onNext: { index, window in
          lines.append("open \(index)")
          _ = window.subscribe(
            onNext: { value in
              lines.append("\(index): \(value)")
              guard value == 1 else { return }
              source.send(2)  // reaches the operator at once: queued behind this element
              source.complete()
              lines.append("after 1")
            }, onCompleted: { lines.append("close \(index)") })
        }, onCompleted: { lines.append("completed") })
    source.send(1)
    source.send(3)  // after the end: dropped
    #expect(lines == ["open 0", "0: 1", "after 1", "0: 2", "close 0", "completed"])
    #expect(log.lines == ["source disposed"])
    #expect(scheduler.liveTimers == 0)
  }

  @Test("a source failing from inside the observer of a new window fails it, then the sequence")
  func reentrantError() {
    let scheduler = CountingScheduler()
    let log = ScenarioLog()
    let source = HandSource(log: log)
    var lines: [String] = []
    _ = source.observable.window(timeSpan: .seconds(100), count: 1, scheduler: scheduler)
      .enumerated()
      .subscribe(
        onNext: { index, window in
          lines.append("open \(index)")
          _ = window.subscribe(
            onNext: { lines.append("\(index): \($0)") },
            onError: { _ in lines.append("error \(index)") },
            onCompleted: { lines.append("close \(index)") })
          guard index == 1 else { return }
          source.fail(TestError())  // before the new window's timer is started
          lines.append("after open 1")
        }, onError: { _ in lines.append("failed") })
    source.send(1)  // fills window 0: window 1 opens
    #expect(
      lines == [
        "open 0", "0: 1", "close 0", "open 1", "after open 1", "error 1", "failed",
      ])
    #expect(log.lines == ["source disposed"])
    #expect(scheduler.liveTimers == 0)
  }

  @Test("disposal from inside the observer of a new window stops the source and every timer")
  func disposalMidFlight() {
    let scheduler = CountingScheduler()
    let log = ScenarioLog()
    let source = HandSource(log: log)
    var lines: [String] = []
    var subscription: (any Disposable)?
    subscription = source.observable.window(
      timeSpan: .seconds(100), count: 1, scheduler: scheduler
    )
    .enumerated()
    .subscribe(onNext: { index, _ in
      lines.append("open \(index)")
      guard index == 1 else { return }
      subscription?.dispose()  // nobody holds a window: the source and the timers go
      #expect(log.lines == ["source disposed"])
    })
    #expect(scheduler.liveTimers == 1)
    source.send(1)  // fills window 0: window 1 opens
    source.send(2)
    scheduler.base.advanceTo(1_000)
    #expect(lines == ["open 0", "open 1"])
    #expect(log.lines == ["source disposed"])
    #expect(scheduler.liveTimers == 0)
  }

  @Test(
    "the open window's timer is replaced when it fills and disposed when the sequence ends",
    arguments: ["completes", "fails", "is disposed"])
  func timerReleasedAfterEnd(end: String) {
    let scheduler = CountingScheduler()
    let log = ScenarioLog()
    let source = HandSource(log: log)
    var windows = 0
    let subscription = source.observable.window(
      timeSpan: .seconds(100), count: 2, scheduler: scheduler
    )
    .subscribe(onNext: { _ in windows += 1 }, onError: { _ in })
    #expect(scheduler.liveTimers == 1)
    for value in 1...5 { source.send(value) }  // two full windows, each replacing its timer
    #expect(windows == 3)
    #expect(scheduler.liveTimers == 1)
    switch end {
    case "completes": source.complete()
    case "fails": source.fail(TestError())
    default: subscription.dispose()
    }
    #expect(scheduler.liveTimers == 0)
    #expect(log.lines == ["source disposed"])
    scheduler.base.advanceTo(1_000)
    #expect(windows == 3)
  }
}
