import Streams
import Testing

@testable import StreamsTest

/// A leak check counts only the objects its block makes (`Resources.Scope`): these tests run
/// beside the others and measure exactly.
@Suite("LeakCheck")
struct LeakCheckTests {
  @Test("measure counts the objects the block made and left alive, and returns its result")
  func measureCounts() {
    var kept: PublishSubject<Int>?
    let (result, leaked) = LeakCheck.measure {
      kept = PublishSubject<Int>()
      return "done"
    }
    #expect(result == "done")
    #expect(leaked == 1)
    withExtendedLifetime(kept) {}
  }

  @Test("expectNoLeaks records an issue naming the count when objects are left alive")
  func expectNoLeaksFails() {
    let subject = PublishSubject<Int>()
    var kept: [any Disposable] = []
    withKnownIssue {
      expectNoLeaks("view model") {
        kept.append(subject.map { $0 }.subscribe(onNext: { _ in }))
      }
    } matching: { issue in
      issue.comments.contains {
        $0.rawValue.hasPrefix("view model: ")
          && $0.rawValue.contains("Streams objects were left alive")
      }
    }
    for subscription in kept { subscription.dispose() }
  }

  @Test("expectNoLeaks passes and returns the body's result when nothing is left alive")
  func expectNoLeaksPasses() {
    let value = expectNoLeaks {
      let subject = PublishSubject<Int>()
      subject.subscribe(onNext: { _ in }).dispose()
      return 42
    }
    #expect(value == 42)
  }

  @Test("the async form counts what the tasks it creates make")
  func asyncCountsTasks() async {
    let subject = PublishSubject<Int>()
    let kept = Log<any Disposable>()
    await withKnownIssue {
      await expectNoLeaks {
        await Task { kept.append(subject.subscribe(onNext: { _ in })) }.value
      }
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("left alive") }
    }
    for subscription in kept.values { subscription.dispose() }
  }

  @Test("the message names the leak, and nothing when everything was released")
  func messages() {
    #expect(LeakCheck.message(leaked: 0, comment: nil) == nil)
    #expect(
      LeakCheck.message(leaked: 1, comment: nil)?.hasPrefix("1 Streams object was left alive")
        == true)
    #expect(
      LeakCheck.message(leaked: 2, comment: "x")?.hasPrefix("x: 2 Streams objects were left alive")
        == true)
  }

  @Test("a disposed chain leaves nothing, while other tests make objects beside it")
  func cleanChain() {
    let (_, leaked) = LeakCheck.measure {
      let subject = PublishSubject<Int>()
      let bag = DisposeBag()
      subject.map { $0 + 1 }.filter { $0 > 0 }.subscribe(onNext: { _ in }).disposed(by: bag)
      subject.onNext(1)
      subject.onCompleted()
    }
    #expect(leaked == 0)
  }
}
