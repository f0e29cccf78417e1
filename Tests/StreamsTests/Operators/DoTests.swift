import Dispatch
import Streams
import StreamsTest
import Testing

private struct TestError: Error, Equatable {
  var id = 0
}

/// Records the order in which handlers run.
private final class Log {
  var lines: [String] = []
  func callAll<Element>(_ source: Observable<Element>) -> Observable<Element> {
    source.do(
      onNext: { self.lines.append("onNext \($0)") },
      afterNext: { self.lines.append("afterNext \($0)") },
      onError: { self.lines.append("onError \($0)") },
      afterError: { self.lines.append("afterError \($0)") },
      onCompleted: { self.lines.append("onCompleted") },
      afterCompleted: { self.lines.append("afterCompleted") },
      onSubscribe: { self.lines.append("onSubscribe") },
      onSubscribed: { self.lines.append("onSubscribed") },
      onDispose: { self.lines.append("onDispose") })
  }
  func subscribe<Element>(_ source: Observable<Element>) -> any Disposable {
    source.subscribe(
      onNext: { self.lines.append("next \($0)") },
      onError: { self.lines.append("error \($0)") },
      onCompleted: { self.lines.append("completed") },
      onDisposed: { self.lines.append("disposed") })
  }
}

@Suite("do")
struct DoTests {
  @Test("handlers run in RxSwift's order around elements and completion")
  func orderWithCompletion() {
    let log = Log()
    let subject = PublishSubject<Int>()
    _ = log.subscribe(log.callAll(subject.asObservable()))
    #expect(log.lines == ["onSubscribe", "onSubscribed"])
    log.lines = []
    subject.onNext(1)
    #expect(log.lines == ["onNext 1", "next 1", "afterNext 1"])
    log.lines = []
    subject.onCompleted()
    #expect(
      log.lines == ["onCompleted", "completed", "disposed", "afterCompleted", "onDispose"])
    #expect(!subject.hasObservers)
  }

  @Test("handlers run in RxSwift's order around an error")
  func orderWithError() {
    let log = Log()
    let subject = PublishSubject<Int>()
    _ = log.subscribe(log.callAll(subject.asObservable()))
    log.lines = []
    subject.onError(TestError(id: 1))
    let error = "\(TestError(id: 1))"
    #expect(
      log.lines == [
        "onError \(error)", "error \(error)", "disposed", "afterError \(error)", "onDispose",
      ])
    #expect(!subject.hasObservers)
  }

  @Test("a source that terminates while subscribed is disposed after onSubscribed")
  func synchronousSource() {
    let log = Log()
    let source = Observable<Int>.create { observer in
      observer.onNext(1)
      observer.onCompleted()
      return Disposables.create()
    }
    _ = log.subscribe(log.callAll(source))
    #expect(
      log.lines == [
        "onSubscribe", "onNext 1", "next 1", "afterNext 1", "onCompleted", "completed", "disposed",
        "afterCompleted", "onSubscribed", "onDispose",
      ])
  }

  @Test("elements, completion and subscription lifetime pass through unchanged")
  func passThrough() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(150, 1), .next(210, 2), .next(220, 3), .completed(250),
    ])
    var sum = 0
    let res = scheduler.start { xs.do(onNext: { sum += $0 }) }
    #expect(res.events == [.next(210, 2), .next(220, 3), .completed(250)])
    #expect(xs.subscriptions == [Subscription(200, 250)])
    #expect(sum == 5)
  }

  @Test("passes the source's error on")
  func error() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 2), .error(220, TestError())])
    var seen: [TestError] = []
    let res = scheduler.start { xs.do(onError: { seen.append($0 as! TestError) }) }
    #expect(res.events == [.next(210, 2), .error(220, TestError())])
    #expect(xs.subscriptions == [Subscription(200, 220)])
    #expect(seen == [TestError()])
  }

  @Test("a throw from onNext replaces the element with the error")
  func throwingOnNext() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
    var after: [Int] = []
    var disposed = 0
    let res = scheduler.start {
      xs.do(
        onNext: { if $0 == 2 { throw TestError(id: 2) } },
        afterNext: { after.append($0) },
        afterError: { _ in after.append(-1) },
        onDispose: { disposed += 1 })
    }
    #expect(res.events == [.next(210, 1), .error(220, TestError(id: 2))])
    #expect(xs.subscriptions == [Subscription(200, 220)])
    #expect(after == [1])
    #expect(disposed == 1)
  }

  @Test("a throw from afterNext follows the element with the error")
  func throwingAfterNext() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
    let res = scheduler.start { xs.do(afterNext: { if $0 == 1 { throw TestError(id: 3) } }) }
    #expect(res.events == [.next(210, 1), .error(210, TestError(id: 3))])
    #expect(xs.subscriptions == [Subscription(200, 210)])
  }

  @Test("a throw from onError or onCompleted replaces the terminal event")
  func throwingTerminalHandlers() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .error(220, TestError(id: 1))])
    let res = scheduler.start { xs.do(onError: { _ in throw TestError(id: 4) }) }
    #expect(res.events == [.next(210, 1), .error(220, TestError(id: 4))])
    #expect(xs.subscriptions == [Subscription(200, 220)])

    let scheduler2 = TestScheduler(initialClock: 0)
    let ys = scheduler2.createHotObservable([.next(210, 1), .completed(220)])
    var afterCompleted = false
    let res2 = scheduler2.start {
      ys.do(onCompleted: { throw TestError(id: 5) }, afterCompleted: { afterCompleted = true })
    }
    #expect(res2.events == [.next(210, 1), .error(220, TestError(id: 5))])
    #expect(ys.subscriptions == [Subscription(200, 220)])
    #expect(!afterCompleted)
  }

  @Test("a throw from afterCompleted is dropped: the sequence already completed")
  func throwingAfterCompleted() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
    let res = scheduler.start { xs.do(afterCompleted: { throw TestError(id: 6) }) }
    #expect(res.events == [.next(210, 1), .completed(220)])
    #expect(xs.subscriptions == [Subscription(200, 220)])
  }

  @Test("stacked dos run onDispose upstream first at a terminal event, as in RxSwift")
  func stackedOnDispose() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .completed(250)])
    var log: [String] = []
    let res = scheduler.start {
      xs.do(afterCompleted: { log.append("afterCompleted A") }, onDispose: { log.append("A") })
        .do(afterCompleted: { log.append("afterCompleted B") }, onDispose: { log.append("B") })
    }
    #expect(res.events == [.next(210, 1), .completed(250)])
    #expect(log == ["afterCompleted B", "A", "B", "afterCompleted A"])
  }

  @Test("stacked dos run onDispose upstream first when disposed")
  func stackedOnDisposeDisposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1)])
    var log: [String] = []
    _ = scheduler.start(disposed: 300) {
      xs.do(onDispose: { log.append("A") }).do(onDispose: { log.append("B") })
    }
    #expect(log == ["A", "B"])
  }

  @Test("disposal mid-stream disposes the source and runs onDispose once")
  func disposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(250)])
    var log: [String] = []
    let res = scheduler.start(disposed: 220) {
      xs.do(
        onNext: { log.append("onNext \($0)") }, onCompleted: { log.append("onCompleted") },
        onSubscribe: { log.append("onSubscribe") }, onSubscribed: { log.append("onSubscribed") },
        onDispose: { log.append("onDispose") })
    }
    #expect(res.events == [.next(210, 1)])
    #expect(xs.subscriptions == [Subscription(200, 220)])
    #expect(log == ["onSubscribe", "onSubscribed", "onNext 1", "onDispose"])
  }

  @Test("a disposal from another thread waits for a terminal event delivered elsewhere to end")
  func disposalDuringDeliveryOnAnotherThread() {
    final class Log: @unchecked Sendable {
      private let lock = TestLock()
      private var lines: [String] = []
      func append(_ line: String) { lock.run { lines.append(line) } }
      var all: [String] { lock.run { lines } }
    }
    let log = Log()
    let subject = PublishSubject<Int>()
    let reached = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)
    let subscription =
      subject
      .do(
        afterError: { _ in log.append("afterError upstream") },
        onDispose: { log.append("onDispose upstream") }
      )
      .do(onError: { _ in
        reached.signal()
        proceed.wait()
      })
      .do(onDispose: { log.append("onDispose downstream") })
      .subscribe(onError: { _ in })
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      subject.onError(TestError(id: 1))
      done.signal()
    }
    reached.wait()
    // The error is being delivered on the other thread, between the two outer dos.
    subscription.dispose()
    log.append("disposed")
    proceed.signal()
    done.wait()
    // The upstream do's disposal waited for its own delivery to end, on the delivering thread:
    // it did not run on the disposing thread while the error was under way.
    #expect(
      log.all == [
        "onDispose downstream", "disposed", "afterError upstream", "onDispose upstream",
      ])
  }
}
