import Dispatch
import Foundation
import Testing

@testable import Streams

/// The bound on one call's work under contention (issue 25): threads sending without pause into
/// one serializer each deliver their own event and at most a turn of others'. Counts, never times.
@Suite("Delivery turns")
struct DeliveryTurnsTests {
  /// The most deliveries one call may make: its own event and one turn of queued ones.
  static let bound = 1 + DeliveryTurns.budget
  static let senders = 4
  static let perSender = 20_000

  @Test("a PublishSubject: four threads sending without pause, each call bounded")
  func publishSubject() {
    let subject = PublishSubject<Int>()
    let log = ContentionLog(senders: Self.senders)
    let subscription = subject.subscribe(onNext: log.receive)
    let stats = Contention.run(senders: Self.senders, perSender: Self.perSender) { value in
      subject.onNext(value)
    }
    subscription.dispose()
    log.expectComplete(perSender: Self.perSender)
    expectBound(stats.maxPerCall, Self.bound, gaveUp: stats.gaveUp, "one call")
    #expect(stats.maxPerCall > 1, "no call delivered another's event: nothing contended")
  }

  @Test("a BehaviorSubject with replaying subscribers arriving: every call bounded")
  func behaviorSubjectWithReplay() {
    let subject = BehaviorSubject(value: -1)
    let log = ContentionLog(senders: Self.senders)
    let subscription = subject.subscribe(onNext: log.receive)
    let late = LateSubscribers()
    let stats = Contention.run(
      senders: Self.senders, perSender: Self.perSender,
      alongside: { stop in late.run(subject, until: stop) },
      send: { value in subject.onNext(value) })
    subscription.dispose()
    log.expectComplete(perSender: Self.perSender, initial: [-1])
    expectBound(stats.maxPerCall, Self.bound, gaveUp: stats.gaveUp, "one onNext")
    #expect(late.subscriptions > 0)
    expectBound(late.maxPerCall, Self.bound, gaveUp: stats.gaveUp, "one subscribe")
    #expect(late.problems.isEmpty, "\(late.problems.prefix(3))")
  }

  @Test("merge of four subjects, one thread each: every call bounded")
  func merge() {
    let subjects = (0..<Self.senders).map { _ in PublishSubject<Int>() }
    expectBounded(Observable.merge(subjects.map { $0.asObservable() }), subjects)
  }

  @Test("combineLatest of four subjects, one thread each: every call bounded")
  func combineLatest() {
    let subjects = (0..<Self.senders).map { _ in PublishSubject<Int>() }
    let combined = Observable.combineLatest(subjects.map { $0.asObservable() }).map { $0[0] }
    let stats = runBounded(combined, subjects, check: false)
    #expect(stats.delivered > 0)
  }

  @Test("flatMap over four subjects, one thread each: every call bounded")
  func flatMap() {
    let subjects = (0..<Self.senders).map { _ in PublishSubject<Int>() }
    let flattened = Observable.from(subjects.map { $0.asObservable() }).flatMap { $0 }
    expectBounded(flattened, subjects)
  }

  /// The turns of one call share its budget; a call holding the inner merge's claim and the outer
  /// one's may still deliver, at each, what was queued there before its budget ran out.
  @Test("merge of two merges, one thread per subject: every call bounded, a turn per merge")
  func nestedMerge() {
    let subjects = (0..<Self.senders).map { _ in PublishSubject<Int>() }
    let halves = [subjects[0..<2], subjects[2..<4]].map {
      Observable.merge($0.map { $0.asObservable() })
    }
    expectBounded(Observable.merge(halves), subjects, bound: 1 + 2 * DeliveryTurns.budget)
  }

  @Test("flatMap over flatMaps to `just`, one thread per subject: every call bounded")
  func flatMapOverJust() {
    let subjects = (0..<Self.senders).map { _ in PublishSubject<Int>() }
    let flattened = Observable.from(subjects.map { $0.asObservable() })
      .flatMap { inner in inner.flatMap { Observable.just($0) } }
    expectBounded(flattened, subjects)
  }

  /// The scheduled actions of `observe(on:)` take no turns and count none: a queue's thread that
  /// delivered there and then waits for a turn at `merge` still delivers its turn when handed it.
  @Test("merge of observe(on:) sequences: everything arrives, in each sender's order")
  func mergeOfObserveOn() {
    let subjects = (0..<Self.senders).map { _ in PublishSubject<Int>() }
    let observed = subjects.enumerated().map { index, subject in
      subject.observe(on: SerialDispatchQueueScheduler(internalSerialQueueName: "turns.\(index)"))
    }
    let log = ContentionLog(senders: Self.senders)
    let subscription = Observable.merge(observed).subscribe(onNext: log.receive)
    let perSender = 5_000
    _ = Contention.run(senders: Self.senders, perSender: perSender) { value in
      subjects[Contention.sender(of: value)].onNext(value)
    }
    let arrived = finishesInTime(seconds: 60) {
      while log.total < Self.senders * perSender { usleep(1_000) }
    }
    subscription.dispose()
    #expect(arrived, "\(log.total) of \(Self.senders * perSender) arrived")
    log.expectComplete(perSender: perSender)
  }

  @Test("a sender that re-enters the subject from its observer is queued, never made to wait")
  func reentrantSendsQueue() {
    let subject = PublishSubject<Int>()
    var received: [Int] = []
    let subscription = subject.subscribe(onNext: { value in
      received.append(value)
      // Far past the budget: a waiting re-entrant send would wait for itself.
      if value == 0 { for next in 1...(3 * DeliveryTurns.budget) { subject.onNext(next) } }
    })
    let finished = finishesInTime { subject.onNext(0) }
    subscription.dispose()
    #expect(finished)
    #expect(received == Array(0...(3 * DeliveryTurns.budget)))
  }

  /// A user lock can close a cycle the ranks cannot see: here the sender holds a lock that the
  /// claim holder's observer needs. The sender's wait ends (`TurnWaiter.patience`), its events
  /// stay queued, and once it lets the lock go the claim holder delivers them all, in order.
  @Test("a sender holding a lock an observer needs stops waiting instead of deadlocking")
  func waitGivesUpOnUserLock() {
    let subject = PublishSubject<Int>()
    let userLock = NSLock()
    let inside = DispatchSemaphore(value: 0)
    let received = TestBox([Int]())
    let subscription = subject.subscribe(onNext: { value in
      if value == 0 {
        inside.signal()
        userLock.withLock {}
      }
      received.withLock { $0.append(value) }
    })
    let count = DeliveryTurns.budget + 8
    let sent = finishesInTime(seconds: 30) {
      userLock.lock()
      let holder = Thread { subject.onNext(0) }
      holder.start()
      inside.wait()
      // Past the budget: the last sends wait for a turn the holder cannot end while it needs
      // the lock this thread holds.
      for value in 1...count { subject.onNext(value) }
      userLock.unlock()
    }
    #expect(sent, "the sender waited for a claim holder that waited for its lock")
    let drained = finishesInTime(seconds: 30) {
      while received.withLock({ $0.count }) < count + 1 { usleep(1_000) }
    }
    subscription.dispose()
    #expect(drained)
    #expect(received.withLock { $0 } == Array(0...count))
  }

  @Test("a serializer ranks above the ones made before it; a delivery holds its rank")
  func ranks() {
    // On a thread of its own, whose claim rank starts at 0 (a rank is per thread).
    let result = TestBox<(seen: [Bool], ordered: Bool, after: Int)>(([], false, -1))
    let done = DispatchSemaphore(value: 0)
    Thread {
      let first = PublishSubject<Int>()
      let second = PublishSubject<Int>()
      var seen: [Bool] = []
      let subscription = first.subscribe(onNext: { _ in
        seen.append(DeliveryTurns(order: .source).callerMayWait)  // a newer one: may wait
        let held = ClaimRank.enter(0)
        seen.append(second.core.rank > held)
        seen.append(first.core.rank > held)  // its own: may not
      })
      first.onNext(1)
      subscription.dispose()
      let outcome = (seen, first.core.rank < second.core.rank, ClaimRank.enter(0))
      result.withLock { $0 = outcome }
      done.signal()
    }.start()
    done.wait()
    let (seen, ordered, after) = result.withLock { $0 }
    #expect(ordered)
    #expect(seen == [true, true, false])
    #expect(after == 0, "the delivery put the thread's rank back")
  }

  private func expectBounded(
    _ merged: Observable<Int>, _ subjects: [PublishSubject<Int>], bound: Int = Self.bound
  ) {
    let stats = runBounded(merged, subjects, check: true, bound: bound)
    #expect(stats.delivered == Self.senders * Self.perSender)
  }

  /// Subscribes to `output`, has thread `i` send its values into `subjects[i]`, and checks the
  /// bound (and, with `check`, that every value arrived once, in each sender's order).
  private func runBounded(
    _ output: Observable<Int>, _ subjects: [PublishSubject<Int>], check: Bool,
    bound: Int = Self.bound
  ) -> ContentionStats {
    let log = ContentionLog(senders: Self.senders)
    let subscription = output.subscribe(onNext: log.receive)
    let stats = Contention.run(senders: Self.senders, perSender: Self.perSender) { value in
      subjects[Contention.sender(of: value)].onNext(value)
    }
    subscription.dispose()
    if check { log.expectComplete(perSender: Self.perSender) }
    expectBound(stats.maxPerCall, bound, gaveUp: stats.gaveUp, "one onNext")
    #expect(stats.maxPerCall > 1, "no call delivered another's event: nothing contended")
    return ContentionStats(
      maxPerCall: stats.maxPerCall, delivered: log.total, gaveUp: stats.gaveUp)
  }

  /// Checks that one call delivered at most `bound` events, unless one of the run's waiters gave
  /// up its wait (``TurnWaiter/patience``): the claim holder then delivers that event past its
  /// turn, as documented, and the bound does not apply to that run.
  private func expectBound(
    _ most: Int, _ bound: Int, gaveUp: Int, _ what: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    guard most > bound else { return }
    #expect(
      gaveUp > 0, "\(what) delivered \(most), more than \(bound), with no waiter giving up",
      sourceLocation: sourceLocation)
  }
}
