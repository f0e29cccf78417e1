import Dispatch
import Streams
import StreamsTest
import Testing

private struct TestError: Error, Equatable {}

/// Words whose key is their first letter, lowercased.
private func initial(_ word: String) -> String { String(word.prefix(1)).lowercased() }

/// Subscribes to `groupBy(initial)` of `xs` at 200 and records each group on its own observer,
/// subscribed `delay` ticks after the group arrives (0: while receiving it). The outer
/// subscription is disposed at `outerDisposed`, the group subscriptions at `groupsDisposed`.
private final class GroupRecorder {
  let scheduler: TestScheduler
  var outer: (any Disposable)?
  var keys: TestableObserver<String>
  var groups: [String: TestableObserver<String>] = [:]
  var groupSubscriptions: [String: any Disposable] = [:]

  init(scheduler: TestScheduler) {
    self.scheduler = scheduler
    keys = scheduler.createObserver(String.self)
  }

  func run(
    _ xs: TestableObservable<String>, delay: Int = 0, outerDisposed: TestTime = 1000,
    groupsDisposed: TestTime = 1000, keySelector: @escaping (String) throws -> String = initial
  ) {
    scheduler.scheduleAt(200) { [self] in
      outer = xs.groupBy(keySelector: keySelector).subscribe(
        onNext: { [self] group in
          keys.onNext(group.key)
          let observer = scheduler.createObserver(String.self)
          groups[group.key] = observer
          if delay == 0 {
            groupSubscriptions[group.key] = group.subscribe(observer)
          } else {
            scheduler.scheduleAt(scheduler.clock + delay) { [self] in
              groupSubscriptions[group.key] = group.subscribe(observer)
            }
          }
        }, onError: { [self] in keys.onError($0) }, onCompleted: { [self] in keys.onCompleted() })
    }
    scheduler.scheduleAt(outerDisposed) { [self] in outer?.dispose() }
    scheduler.scheduleAt(groupsDisposed) { [self] in
      for subscription in groupSubscriptions.values { subscription.dispose() }
    }
    scheduler.start()
  }
}

@Suite("groupBy")
struct GroupByTests {
  static func source(_ scheduler: TestScheduler, end: Recorded<Event<String>> = .completed(500))
    -> TestableObservable<String>
  {
    scheduler.createHotObservable([
      .next(150, "early"), .next(210, "Apple"), .next(220, "banana"), .next(230, "avocado"),
      .next(240, "Cherry"), .next(300, "blueberry"), .next(400, "apricot"), end,
    ])
  }

  @Test("emits a group per key and sends each element to its group")
  func groups() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = Self.source(scheduler)
    let recorder = GroupRecorder(scheduler: scheduler)
    recorder.run(xs)
    #expect(
      recorder.keys.events == [.next(210, "a"), .next(220, "b"), .next(240, "c"), .completed(500)])
    #expect(
      recorder.groups["a"]?.events == [
        .next(210, "Apple"), .next(230, "avocado"), .next(400, "apricot"), .completed(500),
      ])
    #expect(
      recorder.groups["b"]?.events == [
        .next(220, "banana"), .next(300, "blueberry"), .completed(500),
      ])
    #expect(recorder.groups["c"]?.events == [.next(240, "Cherry"), .completed(500)])
    #expect(xs.subscriptions == [Subscription(200, 500)])
  }

  @Test("merged groups keep the source's order, as RxSwift's enumerated groups do")
  func merged() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = Self.source(scheduler)
    let res = scheduler.start {
      xs.groupBy(keySelector: initial).enumerated()
        .map { index, group in group.map { "\(index) \($0)" } }
        .merge()
    }
    #expect(
      res.events == [
        .next(210, "0 Apple"), .next(220, "1 banana"), .next(230, "0 avocado"),
        .next(240, "2 Cherry"), .next(300, "1 blueberry"), .next(400, "0 apricot"),
        .completed(500),
      ])
    #expect(xs.subscriptions == [Subscription(200, 500)])
  }

  @Test("a source error fails every group, then the outer sequence")
  func sourceError() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = Self.source(scheduler, end: .error(500, TestError()))
    let recorder = GroupRecorder(scheduler: scheduler)
    var order: [String] = []
    scheduler.scheduleAt(200) {
      _ = xs.groupBy(keySelector: initial).subscribe(
        onNext: { group in
          _ = group.subscribe(onError: { _ in order.append(group.key) })
        }, onError: { _ in order.append("outer") })
    }
    recorder.run(xs)
    #expect(
      recorder.keys.events == [
        .next(210, "a"), .next(220, "b"), .next(240, "c"), .error(500, TestError()),
      ])
    #expect(recorder.groups["c"]?.events == [.next(240, "Cherry"), .error(500, TestError())])
    #expect(order == ["a", "b", "c", "outer"])
  }

  @Test("a throwing key selector fails the groups and the outer sequence")
  func keySelectorThrows() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = Self.source(scheduler)
    let recorder = GroupRecorder(scheduler: scheduler)
    var calls = 0
    recorder.run(xs) { word in
      calls += 1
      if word == "Cherry" { throw TestError() }
      return initial(word)
    }
    #expect(
      recorder.keys.events == [.next(210, "a"), .next(220, "b"), .error(240, TestError())])
    #expect(
      recorder.groups["a"]?.events == [
        .next(210, "Apple"), .next(230, "avocado"), .error(240, TestError()),
      ])
    #expect(recorder.groups["b"]?.events == [.next(220, "banana"), .error(240, TestError())])
    #expect(calls == 4)
    #expect(xs.subscriptions == [Subscription(200, 240)])
  }

  @Test("a group subscribed late receives only later elements")
  func lateGroupSubscription() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = Self.source(scheduler)
    let recorder = GroupRecorder(scheduler: scheduler)
    recorder.run(xs, delay: 50)
    #expect(recorder.groups["a"]?.events == [.next(400, "apricot"), .completed(500)])
    #expect(recorder.groups["b"]?.events == [.next(300, "blueberry"), .completed(500)])
    #expect(recorder.groups["c"]?.events == [.completed(500)])
    #expect(xs.subscriptions == [Subscription(200, 500)])
  }

  @Test("disposing the outer subscription with no group subscribed disposes the source")
  func outerDisposedAlone() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = Self.source(scheduler)
    let res = scheduler.start(disposed: 235) { xs.groupBy(keySelector: initial).map(\.key) }
    #expect(res.events == [.next(210, "a"), .next(220, "b")])
    #expect(xs.subscriptions == [Subscription(200, 235)])
  }

  @Test("groups keep the source subscribed after the outer subscription is disposed")
  func groupsOutliveOuter() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = Self.source(scheduler)
    let recorder = GroupRecorder(scheduler: scheduler)
    recorder.run(xs, outerDisposed: 225)
    #expect(recorder.keys.events == [.next(210, "a"), .next(220, "b")])
    #expect(
      recorder.groups["a"]?.events == [
        .next(210, "Apple"), .next(230, "avocado"), .next(400, "apricot"), .completed(500),
      ])
    #expect(recorder.groups["c"] == nil)
    #expect(xs.subscriptions == [Subscription(200, 500)])
  }

  @Test("the source is disposed once the outer and every group subscription are gone")
  func allDisposed() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = Self.source(scheduler)
    let recorder = GroupRecorder(scheduler: scheduler)
    recorder.run(xs, outerDisposed: 250, groupsDisposed: 350)
    #expect(recorder.groups["b"]?.events == [.next(220, "banana"), .next(300, "blueberry")])
    #expect(xs.subscriptions == [Subscription(200, 350)])
  }

  @Test("group subscriptions alone do not end the source while the outer one is alive")
  func groupsDisposedOuterAlive() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = Self.source(scheduler)
    let recorder = GroupRecorder(scheduler: scheduler)
    recorder.run(xs, groupsDisposed: 250)
    #expect(recorder.groups["a"]?.events == [.next(210, "Apple"), .next(230, "avocado")])
    #expect(xs.subscriptions == [Subscription(200, 500)])
  }

  @Test("a group subscribed after the source completed completes at once")
  func afterCompletion() {
    var kept: [GroupedObservable<Int, Int>] = []
    _ = Observable.of(1, 2, 3).groupBy { $0 % 2 }.subscribe(onNext: { kept.append($0) })
    #expect(kept.map(\.key) == [1, 0])
    var events: [Event<Int>] = []
    _ = kept[0].subscribe { events.append($0) }
    #expect(events == [.completed])
    _ = kept[1].asObservable().subscribe { events.append($0) }
    #expect(events == [.completed, .completed])
  }

  @Test("an ended subscription releases the key selector and the observers")
  func lifetime() {
    final class Token { var count = 0 }
    for ending in ["complete", "dispose"] {
      let subject = PublishSubject<Int>()
      weak var weakSelectorToken: Token?
      weak var weakObserverToken: Token?
      var outer: (any Disposable)?
      var inner: (any Disposable)?
      do {
        let selectorToken = Token()
        let observerToken = Token()
        weakSelectorToken = selectorToken
        weakObserverToken = observerToken
        outer = subject.groupBy { value -> Int in
          selectorToken.count += 1
          return value % 2
        }.subscribe(onNext: { group in
          inner = group.subscribe(onNext: { _ in observerToken.count += 1 })
        })
        subject.onNext(1)
        #expect(observerToken.count == 1)
      }
      if ending == "complete" {
        subject.onCompleted()
      } else {
        outer?.dispose()
        inner?.dispose()
      }
      #expect(weakSelectorToken == nil, "after \(ending)")
      #expect(weakObserverToken == nil, "after \(ending)")
      #expect(!subject.hasObservers)
      withExtendedLifetime((outer, inner)) {}
    }
  }

  @Test("groups disposed from other threads while the source emits end the source once")
  func concurrentDisposal() async {
    let subject = PublishSubject<Int>()
    var groups: [GroupedObservable<Int, Int>] = []
    let outer = subject.groupBy { $0 % 4 }.subscribe(onNext: { groups.append($0) })
    for value in 0..<4 { subject.onNext(value) }
    let subscriptions = groups.map { $0.subscribe(onNext: { _ in }) }
    outer.dispose()
    let emitter = Task.detached { @Sendable in
      for value in 0..<10_000 { subject.onNext(value) }
    }
    await withTaskGroup(of: Void.self) { group in
      for subscription in subscriptions {
        let box = UncheckedDisposable(subscription)
        group.addTask { box.value.dispose() }
      }
    }
    await emitter.value
    #expect(!subject.hasObservers)
  }
}

/// Hands a disposable to another task; disposables guard their own state.
private struct UncheckedDisposable: @unchecked Sendable {
  let value: any Disposable

  init(_ value: any Disposable) {
    self.value = value
  }
}
