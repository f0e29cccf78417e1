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

  @Test("Hooks.recordCallStackOnError: the captured stack reaches the default error handler")
  func recordCallStackOnError() async {
    // The hooks are process-wide: the check runs in a child process of its own.
    await #expect(processExitsWith: .success) {
      final class Reports: @unchecked Sendable {
        // Only touched on the thread running this check.
        var values: [String] = []
      }
      let reports = Reports()
      precondition(!Hooks.recordCallStackOnError, "recordCallStackOnError must default to false")
      Hooks.defaultErrorHandler = { stack, error in reports.values.append("\(stack) \(error)") }
      Hooks.customCaptureSubscriptionCallstack = { ["frame 1", "frame 2"] }

      let subject = PublishSubject<Int>()
      _ = subject.subscribe(onNext: { _ in })
      Hooks.recordCallStackOnError = true
      _ = subject.subscribe(onNext: { _ in })
      _ = subject.subscribe(onNext: { _ in }, onError: { _ in reports.values.append("handled") })
      _ = Single<Int>.error(RxError.unknown).subscribe(onSuccess: { _ in })
      _ = Maybe<Int>.error(RxError.overflow).subscribe(onSuccess: { _ in })
      _ = Completable.error(RxError.noElements).subscribe(onCompleted: {})
      // The stack is captured at subscription: a later change of the capture does not count.
      Hooks.customCaptureSubscriptionCallstack = { ["later"] }
      subject.onError(RxError.argumentOutOfRange)
      Hooks.recordCallStackOnError = false
      _ = Single<Int>.error(RxError.timeout).subscribe(onSuccess: { _ in })

      precondition(Hooks.customCaptureSubscriptionCallstack() == ["later"])
      let expected = [
        "[\"frame 1\", \"frame 2\"] Unknown error occurred.",
        "[\"frame 1\", \"frame 2\"] Arithmetic overflow occurred.",
        "[\"frame 1\", \"frame 2\"] Sequence doesn't contain any elements.",
        "[] Argument out of range.",
        "[\"frame 1\", \"frame 2\"] Argument out of range.",
        "handled",
        "[] Sequence timeout.",
      ]
      precondition(reports.values == expected, "\(reports.values)")
    }
  }
}
