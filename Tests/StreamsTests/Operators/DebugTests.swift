import StreamsTest
import Testing

@testable import Streams

private struct TestError: Error, Equatable {}

@Suite("debug")
struct DebugTests {
  @Test("logs subscription, each event and disposal after completion")
  func completion() {
    var lines: [String] = []
    let subject = PublishSubject<Int>()
    var received: [Int] = []
    _ = subject.debug(
      "numbers", trimOutput: false, file: #fileID, line: #line, function: #function,
      log: { lines.append($0) }
    ).subscribe(onNext: { received.append($0) })
    #expect(lines == ["numbers -> subscribed"])
    subject.onNext(1)
    subject.onNext(2)
    subject.onCompleted()
    #expect(
      lines == [
        "numbers -> subscribed", "numbers -> Event next(1)", "numbers -> Event next(2)",
        "numbers -> Event completed", "numbers -> isDisposed",
      ])
    #expect(received == [1, 2])
  }

  @Test("logs the error, then disposal")
  func error() {
    var lines: [String] = []
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, "a"), .error(220, TestError())])
    let res = scheduler.start {
      xs.debug(
        "letters", trimOutput: false, file: #fileID, line: #line, function: #function,
        log: { lines.append($0) })
    }
    #expect(res.events == [.next(210, "a"), .error(220, TestError())])
    #expect(xs.subscriptions == [Subscription(200, 220)])
    #expect(
      lines == [
        "letters -> subscribed", "letters -> Event next(a)",
        "letters -> Event error(\(TestError()))", "letters -> isDisposed",
      ])
  }

  @Test("disposal mid-stream logs isDisposed once and disposes the source")
  func disposal() {
    var lines: [String] = []
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(250)])
    let res = scheduler.start(disposed: 220) {
      xs.debug(
        "x", trimOutput: false, file: #fileID, line: #line, function: #function,
        log: { lines.append($0) })
    }
    #expect(res.events == [.next(210, 1)])
    #expect(xs.subscriptions == [Subscription(200, 220)])
    #expect(lines == ["x -> subscribed", "x -> Event next(1)", "x -> isDisposed"])
  }

  @Test("the default identifier names the file, line and function")
  func defaultIdentifier() {
    var lines: [String] = []
    let subject = PublishSubject<Int>()
    let subscription = subject.debug(
      nil, trimOutput: false, file: "Module/Folder/Screen.swift", line: 42,
      function: "load()", log: { lines.append($0) }
    ).subscribe()
    subscription.dispose()
    #expect(
      lines == ["Screen.swift:42 (load()) -> subscribed", "Screen.swift:42 (load()) -> isDisposed"])
  }

  @Test("trimOutput shortens long event descriptions to their ends")
  func trimming() {
    var lines: [String] = []
    let subject = PublishSubject<String>()
    let long = String(repeating: "a", count: 25) + String(repeating: "b", count: 25)
    _ = subject.debug(
      "t", trimOutput: true, file: #fileID, line: #line, function: #function,
      log: { lines.append($0) }
    ).subscribe()
    subject.onNext(long)
    subject.onNext("short")
    let expected =
      "next(" + String(repeating: "a", count: 15) + "..."
      + String(repeating: "b", count: 19) + ")"
    #expect(lines == ["t -> subscribed", "t -> Event \(expected)", "t -> Event next(short)"])
  }

  @Test("the public form passes events through unchanged")
  func publicForm() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .completed(250)])
    let res = scheduler.start { xs.debug("public form") }
    #expect(res.events == [.next(210, 1), .completed(250)])
    #expect(xs.subscriptions == [Subscription(200, 250)])
  }
}
