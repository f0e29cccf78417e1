import StreamsTest
import Testing

@testable import Streams

/// The transitions of ``WithLatestFromStateMachine`` one by one, then the operator where its
/// states meet re-entrancy and disposal, what an ended subscription lets go, and a trap.
@Suite("WithLatestFromStateMachine")
struct WithLatestFromStateMachineTests: HandedBackNaming {
  typealias Machine = WithLatestFromStateMachine<Int, String>

  /// A subscription the tests recognize by name.
  final class Named: Disposable {
    let name: String
    init(_ name: String) { self.name = name }
    func dispose() {}
  }

  static func name(_ disposable: (any Disposable)?) -> String {
    disposable.map { ($0 as? Named)?.name ?? "?" } ?? "nil"
  }

  typealias Element = (Int, String)
  static func describe(_ pair: (Int, String)) -> String { "\(pair.0)\(pair.1)" }

  static func text(_ action: Machine.SubscribedAction) -> String {
    switch action {
    case .keep: "keep"
    case .dispose(let disposable): "dispose \(name(disposable))"
    }
  }

  static func text(_ action: Machine.ForwardAction) -> String {
    switch action {
    case .drop: "drop"
    case .drain(let event): "drain \(name(event))"
    }
  }

  static func text(_ action: Machine.EndAction) -> String {
    switch action {
    case .none: "none"
    case .drain(let event, let latest): "drain \(name(event)) releasing \(latest ?? "nil")"
    }
  }

  static func text(_ action: Machine.SecondNextAction) -> String {
    switch action {
    case .none: "none"
    case .release(let replaced): "release \(replaced)"
    }
  }

  @Test("elements of the first source wait for the second's; the end releases the latest")
  func transitions() {
    var machine = Machine()
    #expect(Self.text(machine.secondSubscribed(Named("second"))) == "keep")
    #expect(Self.text(machine.firstSubscribed(Named("first"))) == "keep")
    #expect(Self.text(machine.firstNext(1)) == "drop")
    #expect(Self.text(machine.secondNext("a")) == "none")
    #expect(Self.text(machine.firstNext(2)) == "drain next(2a)")
    #expect(Self.text(machine.secondNext("b")) == "release a")
    #expect(Self.text(machine.firstNext(3)) == "drain nil")  // queued behind the delivery
    #expect(Self.text(machine.end(with: .completed)) == "drain nil releasing b")
    #expect(Self.name(machine.nextPending()) == "next(3b)")
    #expect(Self.name(machine.nextPending()) == "completed")
    #expect(Self.name(machine.nextPending()) == "nil")
    // Ended: nothing more is accepted.
    #expect(Self.text(machine.firstNext(4)) == "drop")
    #expect(Self.text(machine.secondNext("c")) == "none")
    #expect(Self.text(machine.end(with: .completed)) == "none")
    switch machine.dispose() {
    case .dispose(let first, let second, let queued, let latest):
      #expect(Self.name(first) == "first" && Self.name(second) == "second")
      #expect(queued.isEmpty && latest == nil)
    }
  }

  @Test("disposal hands back both subscriptions, the queued pairs and the latest element")
  func disposalWhileQueued() {
    var machine = Machine()
    #expect(Self.text(machine.secondSubscribed(Named("second"))) == "keep")
    #expect(Self.text(machine.secondNext("a")) == "none")
    #expect(Self.text(machine.firstNext(1)) == "drain next(1a)")
    #expect(Self.text(machine.firstNext(2)) == "drain nil")
    switch machine.dispose() {
    case .dispose(let first, let second, let queued, let latest):
      #expect(Self.name(first) == "nil" && Self.name(second) == "second")
      #expect(queued.count == 1 && latest == "a")
    }
    #expect(Self.name(machine.nextPending()) == "nil")
    // The first source's subscription returns after the disposal: it goes at once.
    #expect(Self.text(machine.firstSubscribed(Named("first"))) == "dispose first")
    #expect(Self.text(machine.firstNext(3)) == "drop")
  }

  @Test("the second source completing releases its subscription; its latest element stays")
  func secondCompletes() {
    var machine = Machine()
    switch machine.secondCompleted() {
    case .none: break
    case .dispose: Issue.record("no subscription was stored yet")
    }
    // Completed inside its own subscribe: the subscription is disposed when it returns.
    #expect(Self.text(machine.secondNext("a")) == "none")
    #expect(Self.text(machine.secondSubscribed(Named("second"))) == "dispose second")
    #expect(Self.text(machine.firstSubscribed(Named("first"))) == "keep")
    #expect(Self.text(machine.firstNext(1)) == "drain next(1a)")
    #expect(Self.name(machine.nextPending()) == "nil")
    switch machine.selectorFailed() {
    case .release(let queued, let latest): #expect(queued.isEmpty && latest == "a")
    }
    #expect(Self.text(machine.firstNext(2)) == "drop")
  }

  @Test("subscribing the first source before the second's subscribe returned is an internal error")
  func subscriptionOrderTrap() async {
    await #expect(processExitsWith: .failure) {
      var machine = WithLatestFromStateMachine<Int, Int>()
      _ = machine.firstSubscribed(Disposables.create())
    }
  }
}

// MARK: - The operator on the machine

extension WithLatestFromStateMachineTests {
  @Test(
    "a source ending from inside the observer ends the sequence after what it queued",
    arguments: ["first completes", "first fails", "second fails"])
  func reentrantEnd(end: String) {
    let log = ScenarioLog()
    let first = HandSource(log: log, name: "first")
    let second = HandSource(log: log, name: "second")
    var events: [Event<String>] = []
    _ = first.observable.withLatestFrom(second.observable) { "\($0)\($1)" }.subscribe { event in
      events.append(event)
      guard event == .next("1") || event == .next("10") else { return }
      first.send(2)  // reaches the operator at once: queued behind this element
      switch end {
      case "first completes": first.complete()
      case "first fails": first.fail(MultiTestError.first)
      default: second.fail(MultiTestError.second)
      }
      first.send(3)  // after the end: dropped
      second.send(9)
      events.append(.next("after"))
    }
    first.send(0)  // no latest element yet: dropped
    second.send(0)
    first.send(1)
    let terminal: Event<String> =
      switch end {
      case "first completes": .completed
      case "first fails": .error(MultiTestError.first)
      default: .error(MultiTestError.second)
      }
    #expect(events == [.next("10"), .next("after"), .next("20"), terminal])
    // A failing `create` source disposes its own subscription first.
    let disposals = end == "second fails" ? ["second", "first"] : ["first", "second"]
    #expect(log.lines == disposals.map { "\($0) disposed" })
  }

  @Test("disposal from inside the observer drops the queued pairs and releases them")
  func disposalMidFlight() {
    final class Box {}
    let log = ScenarioLog()
    let first = HandSource(log: log, name: "first")
    let second = PublishSubject<Box>()
    weak var weakQueued: Box?
    var count = 0
    var subscription: (any Disposable)?
    subscription = first.observable.withLatestFrom(second) { _, box in box }.subscribe(
      onNext: { _ in
        count += 1
        guard count == 1 else { return }
        do {
          let queued = Box()
          weakQueued = queued
          second.onNext(queued)  // the latest element now
          first.send(2)  // queued behind this delivery, paired with it
        }
        subscription?.dispose()
        first.send(3)  // after the disposal: dropped
      })
    second.onNext(Box())
    first.send(1)
    #expect(count == 1)
    #expect(weakQueued == nil)
    #expect(log.lines == ["first disposed"])
    #expect(!second.hasObservers)
  }

  @Test(
    "an ended subscription lets go of its observer and the latest element without disposal",
    arguments: ["first completes", "first fails", "second fails", "disposal"])
  func releaseAfterEnd(end: String) {
    final class Token {}
    final class Box {}
    let first = PublishSubject<Int>()
    let second = PublishSubject<Box>()
    weak var weakToken: Token?
    weak var weakLatest: Box?
    var subscription: (any Disposable)?
    do {
      let token = Token()
      let latest = Box()
      weakToken = token
      weakLatest = latest
      subscription = first.withLatestFrom(second).subscribe(
        onNext: { _ in withExtendedLifetime(token) {} }, onError: { _ in })
      second.onNext(latest)
    }
    first.onNext(1)
    #expect(weakToken != nil && weakLatest != nil)
    switch end {
    case "first completes": first.onCompleted()
    case "first fails": first.onError(MultiTestError.first)
    case "second fails": second.onError(MultiTestError.second)
    default: subscription?.dispose()
    }
    #expect(weakToken == nil)
    #expect(weakLatest == nil)
    #expect(!first.hasObservers && !second.hasObservers)
    withExtendedLifetime(subscription) {}
  }
}
