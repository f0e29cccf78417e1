import StreamsTest
import Testing

@testable import Streams

/// The transitions of ``RetryWhenStateMachine`` one by one, what it hands back, then `retry(when:)`
/// where its states meet a trigger that ends or disposes while an attempt is being subscribed.
@Suite("RetryWhenStateMachine")
struct RetryWhenStateMachineTests {
  typealias Machine = RetryWhenStateMachine

  /// The trigger's subscription.
  final class Trigger: Disposable {
    func dispose() {}
  }

  /// An error the tests recognize by name; a class, so that a test can see it released.
  final class NamedError: Error {
    let name: String
    init(_ name: String) { self.name = name }
  }

  /// The machine, fed attempts named `a1`, `a2`, ... and one trigger, its actions as text.
  struct Harness {
    var machine = Machine()
    var attempts: [SingleAssignmentDisposable] = []
    let trigger = Trigger()

    func name(_ attempt: SingleAssignmentDisposable?) -> String {
      guard let attempt else { return "nil" }
      return attempts.firstIndex { $0 === attempt }.map { "a\($0 + 1)" } ?? "?"
    }

    func name(_ trigger: (any Disposable)?) -> String {
      guard let trigger else { return "nil" }
      return trigger === self.trigger ? "trigger" : "?"
    }

    static func name(_ end: Machine.TriggerEnd?) -> String {
      switch end {
      case nil: "nil"
      case .completed: "completed"
      case .failed(let error): "failed \((error as? NamedError)?.name ?? "?")"
      }
    }

    mutating func triggerSubscribed() -> String {
      switch machine.triggerSubscribed(trigger) {
      case .runLoop: "run loop"
      case .dispose(let trigger): "dispose \(name(trigger))"
      }
    }

    /// The loop's step with a new attempt.
    mutating func willSubscribe() -> String {
      let attempt = SingleAssignmentDisposable()
      attempts.append(attempt)
      switch machine.willSubscribe(attempt) {
      case .stop: return "stop"
      case .subscribe(let previous):
        return "subscribe \(name(attempt)), disposing \(name(previous))"
      }
    }

    mutating func subscribed() -> String {
      switch machine.subscribed() {
      case .stop: "stop"
      case .advance: "advance"
      }
    }

    mutating func failed() -> String {
      switch machine.failed() {
      case .drop: "drop"
      case .notify: "notify"
      case .end(let end): "end \(Self.name(end))"
      }
    }

    mutating func triggered() -> String {
      switch machine.triggered() {
      case .none: "none"
      case .runLoop: "run loop"
      }
    }

    mutating func triggerEnded(_ end: Machine.TriggerEnd) -> String {
      switch machine.triggerEnded(end) {
      case .none: "none"
      case .end: "end"
      }
    }

    mutating func dispose() -> String {
      switch machine.dispose() {
      case .dispose(let attempt, let trigger, let end):
        "dispose \(name(attempt)), \(name(trigger)), releasing \(Self.name(end))"
      }
    }
  }

  @Test(
    "an attempt that fails once subscribed waits for the trigger, whose element starts the next")
  func failureAfterSubscribe() {
    var machine = Harness()
    #expect(machine.triggerSubscribed() == "run loop")
    #expect(machine.willSubscribe() == "subscribe a1, disposing nil")
    #expect(machine.subscribed() == "stop")
    #expect(machine.failed() == "notify")
    #expect(machine.triggered() == "run loop")
    #expect(machine.willSubscribe() == "subscribe a2, disposing a1")
    #expect(machine.subscribed() == "stop")
    #expect(machine.dispose() == "dispose a2, trigger, releasing nil")
  }

  @Test("an attempt that fails while being subscribed: the loop takes the trigger's element")
  func failureWhileSubscribing() {
    var machine = Harness()
    #expect(machine.triggerSubscribed() == "run loop")
    #expect(machine.willSubscribe() == "subscribe a1, disposing nil")
    #expect(machine.failed() == "notify")
    #expect(machine.triggered() == "none")  // the loop goes on once subscribe returns
    #expect(machine.triggered() == "none")  // no failure waits any more
    #expect(machine.subscribed() == "advance")
    #expect(machine.willSubscribe() == "subscribe a2, disposing a1")
    #expect(machine.failed() == "notify")
    #expect(machine.subscribed() == "stop")  // the failure waits, nobody runs the loop
    #expect(machine.triggered() == "run loop")
    #expect(machine.willSubscribe() == "subscribe a3, disposing a2")
    #expect(machine.subscribed() == "stop")
    #expect(machine.dispose() == "dispose a3, trigger, releasing nil")
  }

  @Test("trigger elements while no failure waits are ignored")
  func elementsIgnored() {
    var machine = Harness()
    #expect(machine.triggered() == "none")  // the trigger is being subscribed
    #expect(machine.triggerSubscribed() == "run loop")
    #expect(machine.triggered() == "none")  // the loop is about to subscribe
    #expect(machine.willSubscribe() == "subscribe a1, disposing nil")
    #expect(machine.triggered() == "none")  // the attempt is being subscribed
    #expect(machine.subscribed() == "stop")
    #expect(machine.triggered() == "none")  // the attempt runs
    #expect(machine.dispose() == "dispose a1, trigger, releasing nil")
    #expect(machine.triggered() == "none")
  }

  @Test("the trigger's end while no failure waits is kept; the next failure ends the sequence")
  func triggerEndKept() {
    // While the trigger is being subscribed: the first attempt is still made.
    var machine = Harness()
    #expect(machine.triggerEnded(.completed) == "none")
    #expect(machine.triggerSubscribed() == "run loop")
    #expect(machine.willSubscribe() == "subscribe a1, disposing nil")
    #expect(machine.failed() == "end completed")  // while the attempt is being subscribed
    #expect(machine.subscribed() == "stop")
    #expect(machine.dispose() == "dispose a1, trigger, releasing completed")
    // While the loop is about to subscribe.
    machine = Harness()
    #expect(machine.triggerSubscribed() == "run loop")
    #expect(machine.triggerEnded(.failed(NamedError("x"))) == "none")
    #expect(machine.willSubscribe() == "subscribe a1, disposing nil")
    #expect(machine.subscribed() == "stop")
    #expect(machine.failed() == "end failed x")  // once the attempt runs
    #expect(machine.dispose() == "dispose a1, trigger, releasing failed x")
    // While the loop subscribes an attempt that failed, after the trigger's element.
    machine = Harness()
    #expect(machine.triggerSubscribed() == "run loop")
    #expect(machine.willSubscribe() == "subscribe a1, disposing nil")
    #expect(machine.failed() == "notify")
    #expect(machine.triggered() == "none")
    #expect(machine.triggerEnded(.completed) == "none")
    #expect(machine.subscribed() == "advance")
    #expect(machine.willSubscribe() == "subscribe a2, disposing a1")
    #expect(machine.subscribed() == "stop")
    #expect(machine.failed() == "end completed")
    // While the attempt runs.
    machine = Harness()
    #expect(machine.triggerSubscribed() == "run loop")
    #expect(machine.willSubscribe() == "subscribe a1, disposing nil")
    #expect(machine.subscribed() == "stop")
    #expect(machine.triggerEnded(.completed) == "none")
    #expect(machine.failed() == "end completed")
  }

  @Test("the trigger's end while a failure waits ends the sequence at once")
  func triggerEndWhileWaiting() {
    var machine = Harness()
    #expect(machine.triggerSubscribed() == "run loop")
    #expect(machine.willSubscribe() == "subscribe a1, disposing nil")
    #expect(machine.subscribed() == "stop")
    #expect(machine.failed() == "notify")
    #expect(machine.triggerEnded(.failed(NamedError("x"))) == "end")
    #expect(machine.dispose() == "dispose a1, trigger, releasing nil")
    // While the loop still subscribes the attempt that failed.
    machine = Harness()
    #expect(machine.triggerSubscribed() == "run loop")
    #expect(machine.willSubscribe() == "subscribe a1, disposing nil")
    #expect(machine.failed() == "notify")
    #expect(machine.triggerEnded(.completed) == "end")
    #expect(machine.dispose() == "dispose a1, trigger, releasing nil")
    #expect(machine.subscribed() == "stop")
  }

  @Test("disposal before the first attempt: the trigger is disposed, no attempt is made")
  func disposalBeforeAttempts() {
    var machine = Harness()
    #expect(machine.dispose() == "dispose nil, nil, releasing nil")
    #expect(machine.triggerSubscribed() == "dispose trigger")
    machine = Harness()
    #expect(machine.triggerEnded(.completed) == "none")
    #expect(machine.dispose() == "dispose nil, nil, releasing completed")
    #expect(machine.triggerSubscribed() == "dispose trigger")
    machine = Harness()
    #expect(machine.triggerSubscribed() == "run loop")
    #expect(machine.dispose() == "dispose nil, trigger, releasing nil")
    #expect(machine.willSubscribe() == "stop")
  }

  @Test("disposal while the loop runs: it stops at its next step")
  func disposalWhileLooping() {
    var machine = Harness()
    #expect(machine.triggerSubscribed() == "run loop")
    #expect(machine.willSubscribe() == "subscribe a1, disposing nil")
    #expect(machine.dispose() == "dispose a1, trigger, releasing nil")
    #expect(machine.failed() == "drop")
    #expect(machine.subscribed() == "stop")
    machine = Harness()
    #expect(machine.triggerSubscribed() == "run loop")
    #expect(machine.willSubscribe() == "subscribe a1, disposing nil")
    #expect(machine.failed() == "notify")
    #expect(machine.triggered() == "none")
    #expect(machine.triggerEnded(.completed) == "none")
    #expect(machine.dispose() == "dispose a1, trigger, releasing completed")
    #expect(machine.subscribed() == "stop")
    #expect(machine.willSubscribe() == "stop")
  }

  @Test("disposal once the loop stopped hands back the attempt and the trigger")
  func disposalAfterLoop() {
    var machine = Harness()
    #expect(machine.triggerSubscribed() == "run loop")
    #expect(machine.willSubscribe() == "subscribe a1, disposing nil")
    #expect(machine.subscribed() == "stop")
    #expect(machine.triggerEnded(.completed) == "none")
    #expect(machine.dispose() == "dispose a1, trigger, releasing completed")
    #expect(machine.dispose() == "dispose nil, nil, releasing nil")
    #expect(machine.failed() == "drop")
    #expect(machine.triggered() == "none")
    #expect(machine.triggerEnded(.completed) == "none")
    machine = Harness()
    #expect(machine.triggerSubscribed() == "run loop")
    #expect(machine.willSubscribe() == "subscribe a1, disposing nil")
    #expect(machine.subscribed() == "stop")
    #expect(machine.failed() == "notify")
    #expect(machine.dispose() == "dispose a1, trigger, releasing nil")
    #expect(machine.triggered() == "none")
  }

  @Test("what the machine hands back is the caller's to release: it keeps no reference")
  func handsBackWithoutKeeping() {
    weak var firstAttempt: SingleAssignmentDisposable?
    weak var lastAttempt: SingleAssignmentDisposable?
    weak var trigger: Trigger?
    weak var end: NamedError?
    var machine = Machine()
    do {
      let subscription = Trigger()
      trigger = subscription
      _ = machine.triggerSubscribed(subscription)
      let attempt = SingleAssignmentDisposable()
      firstAttempt = attempt
      _ = machine.willSubscribe(attempt)
      _ = machine.subscribed()
      _ = machine.failed()
      _ = machine.triggered()
    }
    #expect(firstAttempt != nil)  // kept until the next attempt replaces it
    do {
      let attempt = SingleAssignmentDisposable()
      lastAttempt = attempt
      _ = machine.willSubscribe(attempt)  // hands back the failed attempt
      _ = machine.subscribed()
      let error = NamedError("x")
      end = error
      _ = machine.triggerEnded(.failed(error))
    }
    #expect(firstAttempt == nil)
    #expect(lastAttempt != nil && trigger != nil && end != nil)
    _ = machine.dispose()  // hands back the attempt, the trigger and the trigger's end
    #expect(lastAttempt == nil)
    #expect(trigger == nil)
    #expect(end == nil)
    machine = Machine()
    do {
      let subscription = Trigger()
      trigger = subscription
      _ = machine.dispose()
      _ = machine.triggerSubscribed(subscription)  // ended: handed back to be disposed
    }
    #expect(trigger == nil)
  }
}

// MARK: - retry(when:) on the machine

extension RetryWhenStateMachineTests {
  @Test("a trigger that completes inside its subscribe: the first failure completes the sequence")
  func triggerEndsInsideSubscribe() {
    let log = ScenarioLog()
    let source = loggedSource(log, "attempt") { observer in
      observer.onNext(1)
      observer.onError(MultiTestError.first)
    }
    var events: [Event<Int>] = []
    _ = source.retry(when: { (_: Observable<any Error>) in Observable<Int>.empty() })
      .subscribe { events.append($0) }
    #expect(events == [.next(1), .completed])
    #expect(log.lines == ["attempt subscribed", "attempt disposed"])
  }

  @Test(
    "a trigger that ends at a failure inside the attempt's subscribe ends the sequence at once",
    arguments: [false, true])
  func triggerEndsAtSynchronousFailure(fails: Bool) {
    let log = ScenarioLog()
    let source = loggedSource(log, "attempt") { observer in
      observer.onNext(1)
      observer.onError(MultiTestError.first)
    }
    var events: [Event<Int>] = []
    _ = source.retry(when: { (errors: Observable<any Error>) in
      fails
        ? errors.flatMap { _ in Observable<Int>.error(MultiTestError.second) }
        : errors.take(while: { _ in false }).map { _ in 0 }
    })
    .subscribe { events.append($0) }
    #expect(events == [.next(1), fails ? .error(MultiTestError.second) : .completed])
    #expect(log.lines == ["attempt subscribed", "attempt disposed"])
  }

  @Test("disposal from inside the trigger while a failed attempt is being subscribed ends it")
  func disposalInsideTrigger() {
    let log = ScenarioLog()
    var attempts = 0
    var firstObserver: AnyObserver<Int>?
    let source = loggedSource(log, "attempt") { observer in
      attempts += 1
      if attempts == 1 {
        firstObserver = observer
      } else {
        observer.onError(MultiTestError.first)  // inside its subscribe
      }
    }
    let subscription = SingleAssignmentDisposable()
    var events: [Event<Int>] = []
    subscription.setDisposable(
      source.retry(when: { (errors: Observable<any Error>) in
        errors.do(onNext: { _ in if attempts == 2 { subscription.dispose() } })
      })
      .subscribe { events.append($0) })
    firstObserver?.onError(MultiTestError.first)  // the trigger starts the second attempt
    #expect(events == [])
    #expect(attempts == 2)
    let once = ["attempt subscribed", "attempt disposed"]
    #expect(log.lines == once + once)
  }
}
