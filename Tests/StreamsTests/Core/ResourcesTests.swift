import Streams
import Testing

/// `Resources.total` is process-wide and other suites run at the same time (`swift test` runs
/// tests in parallel by default), so each check runs in a child process of its own, where nothing
/// else creates or releases Streams objects.
@Suite("Resources")
struct ResourcesTests {
  @Test("a finished or disposed chain leaves no live Streams objects behind")
  func noLeaks() async {
    await #expect(processExitsWith: .success) {
      let before = Resources.total
      do {
        let subject = PublishSubject<Int>()
        let bag = DisposeBag()
        subject.map { $0 + 1 }.filter { $0 > 0 }.subscribe(onNext: { _ in }).disposed(by: bag)
        subject.onNext(1)
        precondition(Resources.total > before, "a live chain was not counted")
        let other = subject.subscribe(onNext: { _ in })
        other.dispose()
        subject.onCompleted()
      }
      precondition(Resources.total == before, "leaked \(Resources.total - before) objects")
    }
  }

  @Test("a live subscription is counted until disposed")
  func counted() async {
    await #expect(processExitsWith: .success) {
      let before = Resources.total
      let subject = PublishSubject<Int>()
      do {
        let subscription = subject.map { $0 }.subscribe(onNext: { _ in })
        precondition(Resources.total > before, "a live subscription was not counted")
        subscription.dispose()
      }
      let afterDisposal = Resources.total
      withExtendedLifetime(subject) {}
      // Only the subject itself may still be alive once the subscription is disposed and gone.
      precondition(
        afterDisposal == before + 1,
        "expected only the subject alive, found \(afterDisposal - before) objects")
    }
  }
}
