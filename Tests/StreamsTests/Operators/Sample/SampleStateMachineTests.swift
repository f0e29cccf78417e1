import StreamsTest
import Testing

@testable import Streams

/// The transitions of ``SampleStateMachine`` one by one, then the operator where its states meet
/// re-entrancy and disposal, and what an ended subscription lets go.
@Suite("SampleStateMachine")
struct SampleStateMachineTests: HandedBackNaming {
  typealias Machine = SampleStateMachine<Int>

  static func text(_ action: Machine.SourceNextAction) -> String {
    switch action {
    case .none: "none"
    case .release(let replaced): "release \(replaced)"
    }
  }

  static func text(_ action: Machine.SourceCompletedAction) -> String {
    switch action {
    case .none: "none"
    case .disposeSource: "dispose source"
    }
  }

  static func text(_ action: Machine.TickAction) -> String {
    switch action {
    case .none: "none"
    case .drain(let event): "drain \(name(event))"
    }
  }

  static func text(_ action: Machine.FailedAction) -> String {
    switch action {
    case .none: "none"
    case .drain(let event, let dropped): "drain \(name(event)) dropping \(dropped ?? -1)"
    }
  }

  @Test("a tick emits the latest element since the last; after the source completes, it ends")
  func transitions() {
    var machine = Machine(defaultValue: nil)
    #expect(Self.text(machine.ticked()) == "none")
    #expect(Self.text(machine.sourceSent(1)) == "none")
    #expect(Self.text(machine.sourceSent(2)) == "release 1")
    #expect(Self.text(machine.ticked()) == "drain next(2)")
    #expect(Self.name(machine.nextPending()) == "nil")
    #expect(Self.text(machine.ticked()) == "none")
    #expect(Self.text(machine.sourceSent(3)) == "none")
    #expect(Self.text(machine.sourceCompleted()) == "dispose source")
    #expect(Self.text(machine.sourceCompleted()) == "none")
    #expect(Self.text(machine.sourceSent(4)) == "none")  // after the completion: dropped
    #expect(Self.text(machine.ticked()) == "drain next(3)")
    #expect(Self.name(machine.nextPending()) == "completed")
    #expect(Self.name(machine.nextPending()) == "nil")
    #expect(Self.text(machine.ticked()) == "none")
    #expect(Self.text(machine.failed(MultiTestError.first)) == "none")
  }

  @Test("a default value fills a tick without an element, the last one included")
  func defaultValue() {
    var machine = Machine(defaultValue: 0)
    #expect(Self.text(machine.ticked()) == "drain next(0)")
    #expect(Self.name(machine.nextPending()) == "nil")
    #expect(Self.text(machine.sourceCompleted()) == "dispose source")
    #expect(Self.text(machine.ticked()) == "drain next(0)")
    #expect(Self.name(machine.nextPending()) == "completed")
  }

  @Test("an error of either sequence drops the element held, also once the source completed")
  func failureDropsHeld() {
    for completes in [false, true] {
      var machine = Machine(defaultValue: nil)
      #expect(Self.text(machine.sourceSent(1)) == "none")
      if completes { #expect(Self.text(machine.sourceCompleted()) == "dispose source") }
      #expect(Self.text(machine.failed(MultiTestError.first)) == "drain error dropping 1")
      #expect(Self.name(machine.nextPending()) == "nil")
      #expect(Self.text(machine.ticked()) == "none")
      #expect(Self.text(machine.sourceCompleted()) == "dispose source")
    }
  }
}

// MARK: - The operator on the machine

extension SampleStateMachineTests {
  @Test(
    "a sequence ending from inside the observer ends the result after what it queued",
    arguments: [false, true])
  func reentrantEnd(fails: Bool) {
    let log = ScenarioLog()
    let source = HandSource(log: log, name: "source")
    let sampler = HandSource(log: log, name: "sampler")
    var lines: [String] = []
    _ = source.observable.sample(sampler.observable).subscribe(
      onNext: { value in
        lines.append("\(value)")
        guard value == 1 else { return }
        source.send(2)
        if fails {
          sampler.fail(MultiTestError.second)
        } else {
          source.complete()
          sampler.send(0)  // emits 2 and completes, queued behind this element
        }
        lines.append("after 1")
      }, onError: { _ in lines.append("failed") }, onCompleted: { lines.append("completed") })
    source.send(1)
    sampler.send(0)
    let end = fails ? ["failed"] : ["2", "completed"]
    #expect(lines == ["1", "after 1"] + end)
    // A failing `create` sampler disposes its own subscription first.
    let disposals = fails ? ["sampler", "source"] : ["source", "sampler"]
    #expect(log.lines == disposals.map { "\($0) disposed" })
  }

  @Test("disposal from inside the observer drops a queued element and releases it")
  func disposalMidFlight() {
    final class Box {}
    let source = PublishSubject<Box>()
    let sampler = PublishSubject<Int>()
    weak var weakQueued: Box?
    var count = 0
    var subscription: (any Disposable)?
    subscription = source.sample(sampler).subscribe(onNext: { _ in
      count += 1
      guard count == 1 else { return }
      do {
        let queued = Box()
        weakQueued = queued
        source.onNext(queued)
      }
      sampler.onNext(0)  // the sampler's subject queues it behind this delivery
      subscription?.dispose()
    })
    source.onNext(Box())
    sampler.onNext(0)
    #expect(count == 1)
    #expect(weakQueued == nil)
    #expect(!source.hasObservers && !sampler.hasObservers)
  }

  @Test(
    "an ended subscription lets go of its observer and the element held without disposal",
    arguments: ["source fails", "sampler fails", "sampler completes after the source"])
  func releaseAfterEnd(end: String) {
    final class Token {}
    final class Box {}
    let source = PublishSubject<Box>()
    let sampler = PublishSubject<Int>()
    weak var weakToken: Token?
    weak var weakHeld: Box?
    var subscription: (any Disposable)?
    do {
      let token = Token()
      let held = Box()
      weakToken = token
      weakHeld = held
      subscription = source.sample(sampler).subscribe(
        onNext: { _ in withExtendedLifetime(token) {} }, onError: { _ in })
      source.onNext(held)
    }
    #expect(weakToken != nil && weakHeld != nil)
    switch end {
    case "source fails":
      source.onError(MultiTestError.first)
    case "sampler fails":
      sampler.onError(MultiTestError.second)
    default:
      source.onCompleted()
      #expect(weakHeld != nil)  // left for the next tick
      sampler.onCompleted()
    }
    #expect(weakToken == nil)
    #expect(weakHeld == nil)
    #expect(!source.hasObservers && !sampler.hasObservers)
    withExtendedLifetime(subscription) {}
  }
}
