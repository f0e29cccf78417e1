import Streams
import StreamsTest
import Testing

private struct TestError: Error, Equatable {
  var id = 0
}

/// Lines written by disposables and sources; the tests that use it run on one thread.
private final class Log: @unchecked Sendable {
  var lines: [String] = []
}

@Suite("catch")
struct CatchTests {
  @Test("catch continues with the handler's sequence after an error")
  func catchContinues() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(150, 1), .next(210, 2), .error(230, TestError(id: 1)), .next(240, 9),
    ])
    let ys = scheduler.createColdObservable([.next(20, 3), .completed(30)])
    var caught: [TestError] = []
    let res = scheduler.start {
      xs.catch { error in
        caught.append(error as! TestError)
        return ys.asObservable()
      }
    }
    #expect(res.events == [.next(210, 2), .next(250, 3), .completed(260)])
    #expect(xs.subscriptions == [Subscription(200, 230)])
    #expect(ys.subscriptions == [Subscription(230, 260)])
    #expect(caught == [TestError(id: 1)])
  }

  @Test("catch: the handler's sequence is subscribed before the failed source's onDispose runs")
  func catchSubscribesBeforeOnDispose() {
    // RxSwift's order: it subscribes the handler's sequence first, then disposes the source.
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable(
      [.error(230, TestError(id: 1))] as [Recorded<Event<Int>>])
    var log: [String] = []
    _ = scheduler.start {
      xs.do(
        onSubscribe: { log.append("subscribe source") },
        onDispose: { log.append("dispose source") }
      )
      .catch { _ in Observable.never().do(onSubscribe: { log.append("subscribe handler's") }) }
    }
    #expect(log == ["subscribe source", "subscribe handler's", "dispose source"])
  }

  @Test("catch(sequence:): a failed source's onDispose runs before the next one is subscribed")
  func catchSequenceDisposesBeforeSubscribing() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable(
      [.error(230, TestError(id: 1))] as [Recorded<Event<Int>>])
    var log: [String] = []
    _ = scheduler.start {
      Observable.catch(sequence: [
        xs.do(
          onSubscribe: { log.append("subscribe first") }, onDispose: { log.append("dispose first") }
        ),
        Observable.never().do(onSubscribe: { log.append("subscribe second") }),
      ])
    }
    #expect(log == ["subscribe first", "dispose first", "subscribe second"])
  }

  @Test("catch: completion of the source never calls the handler")
  func catchCompletion() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 2), .completed(230)])
    var calls = 0
    let res = scheduler.start {
      xs.catch { _ in
        calls += 1
        return xs.asObservable()
      }
    }
    #expect(res.events == [.next(210, 2), .completed(230)])
    #expect(xs.subscriptions == [Subscription(200, 230)])
    #expect(calls == 0)
  }

  @Test("catch: an error of the handler's sequence is passed on")
  func catchSecondError() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 2), .error(230, TestError(id: 1))])
    let ys = scheduler.createColdObservable([.next(10, 3), .error(20, TestError(id: 2))])
    let res = scheduler.start { xs.catch { _ in ys.asObservable() } }
    #expect(res.events == [.next(210, 2), .next(240, 3), .error(250, TestError(id: 2))])
    #expect(xs.subscriptions == [Subscription(200, 230)])
    #expect(ys.subscriptions == [Subscription(230, 250)])
  }

  @Test("catch: a throw from the handler becomes the error")
  func catchThrowingHandler() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 2), .error(230, TestError(id: 1))])
    let res = scheduler.start {
      xs.catch { _ -> Observable<Int> in throw TestError(id: 3) }
    }
    #expect(res.events == [.next(210, 2), .error(230, TestError(id: 3))])
    #expect(xs.subscriptions == [Subscription(200, 230)])
  }

  @Test("catch: disposal mid-stream disposes whichever sequence is subscribed")
  func catchDisposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 2), .error(230, TestError(id: 1))])
    let ys = scheduler.createColdObservable([.next(10, 3), .next(30, 4), .completed(40)])
    let res = scheduler.start(disposed: 250) { xs.catch { _ in ys.asObservable() } }
    #expect(res.events == [.next(210, 2), .next(240, 3)])
    #expect(xs.subscriptions == [Subscription(200, 230)])
    #expect(ys.subscriptions == [Subscription(230, 250)])

    let scheduler2 = TestScheduler(initialClock: 0)
    let zs = scheduler2.createHotObservable([.next(210, 2), .error(230, TestError(id: 1))])
    let ws = scheduler2.createColdObservable([.next(10, 3)])
    let res2 = scheduler2.start(disposed: 220) { zs.catch { _ in ws.asObservable() } }
    #expect(res2.events == [.next(210, 2)])
    #expect(zs.subscriptions == [Subscription(200, 220)])
    #expect(ws.subscriptions == [])
  }

  @Test("catch disposes the failed source before subscribing the handler's sequence")
  func catchDisposalOrder() {
    let log = Log()
    let subject = PublishSubject<Int>()
    let source = Observable<Int>.create { observer in
      let inner = subject.subscribe(observer)
      return Disposables.create(with: {
        inner.dispose()
        log.lines.append("source disposed")
      })
    }
    let replacement = Observable<Int>.create { observer in
      log.lines.append("replacement subscribed")
      observer.onNext(7)
      return Disposables.create()
    }
    var received: [Int] = []
    let subscription = source.catch { _ in replacement }.subscribe(onNext: { received.append($0) })
    subject.onNext(1)
    subject.onError(TestError())
    #expect(log.lines == ["source disposed", "replacement subscribed"])
    #expect(received == [1, 7])
    subscription.dispose()
  }

  @Test("catchAndReturn replaces the error with the element and completes")
  func catchAndReturn() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 2), .error(230, TestError()), .next(240, 5)])
    let res = scheduler.start { xs.catchAndReturn(0) }
    #expect(res.events == [.next(210, 2), .next(230, 0), .completed(230)])
    #expect(xs.subscriptions == [Subscription(200, 230)])
  }

  @Test("catchAndReturn: completion passes; disposal mid-stream disposes the source")
  func catchAndReturnCompletionAndDisposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 2), .completed(230)])
    let res = scheduler.start { xs.catchAndReturn(0) }
    #expect(res.events == [.next(210, 2), .completed(230)])
    #expect(xs.subscriptions == [Subscription(200, 230)])

    let scheduler2 = TestScheduler(initialClock: 0)
    let ys = scheduler2.createHotObservable([.next(210, 2), .error(230, TestError())])
    let res2 = scheduler2.start(disposed: 220) { ys.catchAndReturn(0) }
    #expect(res2.events == [.next(210, 2)])
    #expect(ys.subscriptions == [Subscription(200, 220)])
  }

  @Test("catch(sequence:) moves to the next sequence after each error until one completes")
  func catchSequence() {
    let scheduler = TestScheduler(initialClock: 0)
    let o1 = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(id: 1))])
    let o2 = scheduler.createColdObservable([.next(10, 2), .error(20, TestError(id: 2))])
    let o3 = scheduler.createColdObservable([.next(10, 3), .completed(20)])
    let o4 = scheduler.createColdObservable([.next(10, 4), .completed(20)])
    let res = scheduler.start {
      Observable.catch(sequence: [o1, o2, o3, o4].map { $0.asObservable() })
    }
    #expect(res.events == [.next(210, 1), .next(230, 2), .next(250, 3), .completed(260)])
    #expect(o1.subscriptions == [Subscription(200, 220)])
    #expect(o2.subscriptions == [Subscription(220, 240)])
    #expect(o3.subscriptions == [Subscription(240, 260)])
    #expect(o4.subscriptions == [])
  }

  @Test("catch(sequence:) fails with the last error when every sequence fails")
  func catchSequenceAllFail() {
    let scheduler = TestScheduler(initialClock: 0)
    let o1 = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(id: 1))])
    let o2 = scheduler.createColdObservable([Recorded<Event<Int>>.error(5, TestError(id: 2))])
    let res = scheduler.start {
      Observable.catch(sequence: [o1.asObservable(), o2.asObservable()])
    }
    #expect(res.events == [.next(210, 1), .error(225, TestError(id: 2))])
    #expect(o1.subscriptions == [Subscription(200, 220)])
    #expect(o2.subscriptions == [Subscription(220, 225)])
  }

  @Test("catch(sequence:) of no sequences completes at once")
  func catchSequenceEmpty() {
    let scheduler = TestScheduler(initialClock: 0)
    let res = scheduler.start { Observable<Int>.catch(sequence: []) }
    #expect(res.events == [.completed(200)])
  }

  @Test("catch(sequence:): disposal mid-stream disposes the current sequence and stops")
  func catchSequenceDisposal() {
    let scheduler = TestScheduler(initialClock: 0)
    let o1 = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(id: 1))])
    let o2 = scheduler.createColdObservable([.next(10, 2), .error(20, TestError(id: 2))])
    let o3 = scheduler.createColdObservable([.next(10, 3), .completed(20)])
    let res = scheduler.start(disposed: 235) {
      Observable.catch(sequence: [o1, o2, o3].map { $0.asObservable() })
    }
    #expect(res.events == [.next(210, 1), .next(230, 2)])
    #expect(o1.subscriptions == [Subscription(200, 220)])
    #expect(o2.subscriptions == [Subscription(220, 235)])
    #expect(o3.subscriptions == [])
  }

  @Test("catch(sequence:) moves past many synchronously failing sequences without recursion")
  func catchSequenceSynchronousFailures() {
    let log = Log()
    let failing = Observable<Int>.create { observer in
      observer.onError(TestError())
      return Disposables.create(with: { log.lines.append("") })
    }
    let succeeding = Observable<Int>.create { observer in
      observer.onNext(1)
      observer.onCompleted()
      return Disposables.create()
    }
    let count = 20_000
    var events: [Event<Int>] = []
    _ = Observable.catch(sequence: Array(repeating: failing, count: count) + [succeeding])
      .subscribe { events.append($0) }
    #expect(events == [.next(1), .completed])
    #expect(log.lines.count == count)
  }

  @Test("catch(sequence:) subscribes nothing more when a failed source's onDispose disposes it")
  func sequenceDisposedByOnDispose() {
    let scheduler = TestScheduler(initialClock: 0)
    let first = scheduler.createColdObservable([
      Recorded<Event<Int>>.error(10, CatchSequenceDisposalError())
    ])
    let second = scheduler.createColdObservable([.next(10, 1)])
    let subscription = SingleAssignmentDisposable()
    var received: [Int] = []
    scheduler.scheduleAt(100) {
      subscription.setDisposable(
        Observable.catch(sequence: [
          first.asObservable().do(onDispose: { subscription.dispose() }), second.asObservable(),
        ])
        .subscribe(onNext: { received.append($0) }))
    }
    scheduler.start()
    #expect(first.subscriptions == [Subscription(100, 110)])
    #expect(second.subscriptions == [])
    #expect(received == [])
  }
}

private struct CatchSequenceDisposalError: Error {}
