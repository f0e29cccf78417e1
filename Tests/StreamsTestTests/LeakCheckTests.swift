import Streams
import Testing

@testable import StreamsTest

/// The live-object counter is process-wide, and other suites may run at the same time: these tests
/// check the logic against a counter of their own, and check the real counter only in ways that
/// other tests' objects cannot break (a retried clean run, a leak far bigger than any noise).
@Suite("LeakCheck", .serialized)
struct LeakCheckTests {
  @Test("measure reports the change of the counter and the body's result")
  func measureCounter() {
    let counter = Log<Int>()
    let count = { counter.values.count }
    let (result, leaked) = LeakCheck.measure(counter: count) {
      counter.append(1)
      counter.append(2)
      return "done"
    }
    #expect(result == "done")
    #expect(leaked == 2)
  }

  @Test("expectNoLeaks records an issue naming the count when objects are left alive")
  func expectNoLeaksFails() {
    let counter = Log<Int>()
    let count = { counter.values.count }
    withKnownIssue {
      expectNoLeaks(counter: count, "view model", sourceLocation: #_sourceLocation) {
        counter.append(1)
        counter.append(2)
        counter.append(3)
      }
    } matching: { issue in
      issue.comments.contains {
        $0.rawValue.hasPrefix("view model: 3 Streams objects were left alive")
      }
    }
  }

  @Test("expectNoLeaks passes and returns the body's result when nothing is left alive")
  func expectNoLeaksPasses() {
    let constant = { 7 }
    let value = expectNoLeaks(counter: constant, nil, sourceLocation: #_sourceLocation) { 42 }
    #expect(value == 42)
  }

  @Test("the message names leaks and over-releases, and nothing when balanced")
  func messages() {
    #expect(LeakCheck.message(leaked: 0, comment: nil) == nil)
    #expect(
      LeakCheck.message(leaked: 1, comment: nil)?.hasPrefix("1 Streams object was left alive")
        == true)
    #expect(
      LeakCheck.message(leaked: -2, comment: "x")?.hasPrefix(
        "x: 2 more Streams objects were released than created") == true)
  }

  @Test("a disposed chain leaves the real counter unchanged")
  func realCounterClean() {
    // Objects of tests running in parallel can move the counter during one attempt; a clean
    // chain leaves it unchanged in at least one of many attempts.
    var deltas: [Int] = []
    for _ in 0..<50 {
      let (_, leaked) = LeakCheck.measure {
        let subject = PublishSubject<Int>()
        let bag = DisposeBag()
        subject.map { $0 + 1 }.filter { $0 > 0 }.subscribe(onNext: { _ in }).disposed(by: bag)
        subject.onNext(1)
        subject.onCompleted()
      }
      deltas.append(leaked)
      if leaked == 0 { break }
    }
    #expect(deltas.last == 0, "deltas: \(deltas)")
  }

  @Test("live subscriptions kept past the block show up on the real counter")
  func realCounterLeak() {
    let subject = PublishSubject<Int>()
    var kept: [any Disposable] = []
    let (_, leaked) = LeakCheck.measure {
      for _ in 0..<200 { kept.append(subject.map { $0 }.subscribe(onNext: { _ in })) }
    }
    #expect(leaked != 0)
    for subscription in kept { subscription.dispose() }
  }
}
