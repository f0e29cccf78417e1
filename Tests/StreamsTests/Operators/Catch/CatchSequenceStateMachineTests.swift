import StreamsTest
import Testing

@testable import Streams

/// The transitions of ``CatchSequenceStateMachine`` one by one, what it hands back, then the
/// operators that run on it (`catch(sequence:)`, `retry`) where its states meet disposal from
/// inside the iterator and a source that ends inside its own `subscribe`.
@Suite("CatchSequenceStateMachine")
struct CatchSequenceStateMachineTests {
  typealias Machine = CatchSequenceStateMachine

  /// A subscription the tests recognize by name.
  final class Named: Disposable {
    let name: String
    init(_ name: String) { self.name = name }
    func dispose() {}
  }

  /// An error the tests recognize by name; a class, so that a test can see it released.
  final class NamedError: Error {
    let name: String
    init(_ name: String) { self.name = name }
  }

  static func name(_ disposable: (any Disposable)?) -> String {
    disposable.map { ($0 as? Named)?.name ?? "?" } ?? "nil"
  }

  static func name(_ error: (any Error)?) -> String {
    error.map { ($0 as? NamedError)?.name ?? "?" } ?? "nil"
  }

  static func text(_ action: Machine.FetchAction) -> String {
    switch action {
    case .stop: "stop"
    case .fetch: "fetch"
    }
  }

  static func text(_ action: Machine.ExhaustedAction) -> String {
    switch action {
    case .none: "none"
    case .complete: "complete"
    case .fail(let error): "fail \(name(error))"
    }
  }

  static func text(_ action: Machine.SubscribeAction) -> String {
    switch action {
    case .stop: "stop"
    case .subscribe: "subscribe"
    }
  }

  static func text(_ action: Machine.SubscribedAction) -> String {
    switch action {
    case .keep: "keep"
    case .dispose(let subscription): "dispose \(name(subscription))"
    case .advance(let subscription): "advance after \(name(subscription))"
    }
  }

  static func text(_ action: Machine.FailedAction) -> String {
    switch action {
    case .drop: "drop"
    case .advanceLater(let replaced): "advance later, releasing \(name(replaced))"
    case .runLoop(let failed, let replaced):
      "run loop after \(name(failed)), releasing \(name(replaced))"
    }
  }

  static func text(_ action: Machine.DisposeAction) -> String {
    switch action {
    case .dispose(let current, let lastError):
      "dispose \(name(current)), releasing \(name(lastError))"
    }
  }

  /// Runs the loop's steps up to a subscribed source: fetching, subscribing, subscribed.
  static func subscribe(_ machine: inout Machine, _ name: String) -> String {
    [
      text(machine.willFetch()), text(machine.willSubscribe()),
      text(machine.subscribed(Named(name))),
    ].joined(separator: ", ")
  }

  @Test("a source that fails once subscribed runs the loop after it; the last error ends it all")
  func failuresAfterSubscribe() {
    var machine = Machine()
    #expect(Self.subscribe(&machine, "a") == "fetch, subscribe, keep")
    #expect(Self.text(machine.failed(NamedError("1"))) == "run loop after a, releasing nil")
    #expect(Self.subscribe(&machine, "b") == "fetch, subscribe, keep")
    #expect(Self.text(machine.failed(NamedError("2"))) == "run loop after b, releasing 1")
    #expect(Self.text(machine.willFetch()) == "fetch")
    #expect(Self.text(machine.exhausted()) == "fail 2")
    #expect(Self.text(machine.dispose()) == "dispose nil, releasing nil")
  }

  @Test("no source at all completes; the ended machine stops the loop and drops what comes")
  func noSource() {
    var machine = Machine()
    #expect(Self.text(machine.willFetch()) == "fetch")
    #expect(Self.text(machine.exhausted()) == "complete")
    #expect(Self.text(machine.willFetch()) == "stop")
    #expect(Self.text(machine.exhausted()) == "none")
    #expect(Self.text(machine.willSubscribe()) == "stop")
    #expect(Self.text(machine.subscribed(Named("late"))) == "dispose late")
    #expect(Self.text(machine.failed(NamedError("1"))) == "drop")
    #expect(Self.text(machine.dispose()) == "dispose nil, releasing nil")
  }

  @Test("a source that fails while being subscribed: the loop goes on when subscribe returns")
  func failuresWhileSubscribing() {
    var machine = Machine()
    #expect(Self.text(machine.willFetch()) == "fetch")
    #expect(Self.text(machine.willSubscribe()) == "subscribe")
    #expect(Self.text(machine.failed(NamedError("1"))) == "advance later, releasing nil")
    #expect(Self.text(machine.subscribed(Named("a"))) == "advance after a")
    #expect(Self.text(machine.willFetch()) == "fetch")
    #expect(Self.text(machine.willSubscribe()) == "subscribe")
    #expect(Self.text(machine.failed(NamedError("2"))) == "advance later, releasing 1")
    #expect(Self.text(machine.subscribed(Named("b"))) == "advance after b")
    #expect(Self.subscribe(&machine, "c") == "fetch, subscribe, keep")
    #expect(Self.text(machine.dispose()) == "dispose c, releasing 2")
    #expect(Self.text(machine.failed(NamedError("3"))) == "drop")
  }

  @Test("disposal while fetching: the loop stops at its next step, the last error handed back")
  func disposalWhileFetching() {
    var machine = Machine()
    #expect(Self.text(machine.willFetch()) == "fetch")
    #expect(Self.text(machine.dispose()) == "dispose nil, releasing nil")
    #expect(Self.text(machine.exhausted()) == "none")
    machine = Machine()
    #expect(Self.subscribe(&machine, "a") == "fetch, subscribe, keep")
    #expect(Self.text(machine.failed(NamedError("1"))) == "run loop after a, releasing nil")
    #expect(Self.text(machine.dispose()) == "dispose nil, releasing 1")
    #expect(Self.text(machine.willFetch()) == "stop")
    machine = Machine()
    #expect(Self.text(machine.willFetch()) == "fetch")
    #expect(Self.text(machine.dispose()) == "dispose nil, releasing nil")
    #expect(Self.text(machine.willSubscribe()) == "stop")
  }

  @Test("disposal while subscribing: the subscription is disposed when subscribe returns")
  func disposalWhileSubscribing() {
    var machine = Machine()
    #expect(Self.text(machine.willFetch()) == "fetch")
    #expect(Self.text(machine.willSubscribe()) == "subscribe")
    #expect(Self.text(machine.dispose()) == "dispose nil, releasing nil")
    #expect(Self.text(machine.subscribed(Named("a"))) == "dispose a")
    machine = Machine()
    #expect(Self.text(machine.willFetch()) == "fetch")
    #expect(Self.text(machine.willSubscribe()) == "subscribe")
    #expect(Self.text(machine.failed(NamedError("1"))) == "advance later, releasing nil")
    #expect(Self.text(machine.dispose()) == "dispose nil, releasing 1")
    #expect(Self.text(machine.subscribed(Named("a"))) == "dispose a")
    #expect(Self.text(machine.willFetch()) == "stop")
  }

  @Test("disposal while a source runs hands back its subscription and the last error")
  func disposalWhileRunning() {
    var machine = Machine()
    #expect(Self.subscribe(&machine, "a") == "fetch, subscribe, keep")
    #expect(Self.text(machine.dispose()) == "dispose a, releasing nil")
    #expect(Self.text(machine.failed(NamedError("1"))) == "drop")
    machine = Machine()
    #expect(Self.subscribe(&machine, "a") == "fetch, subscribe, keep")
    #expect(Self.text(machine.failed(NamedError("1"))) == "run loop after a, releasing nil")
    #expect(Self.subscribe(&machine, "b") == "fetch, subscribe, keep")
    #expect(Self.text(machine.dispose()) == "dispose b, releasing 1")
    #expect(Self.text(machine.dispose()) == "dispose nil, releasing nil")
  }

  @Test("what the machine hands back is the caller's to release: it keeps no reference")
  func handsBackWithoutKeeping() {
    final class Subscription: Disposable {
      func dispose() {}
    }
    weak var firstSubscription: Subscription?
    weak var firstError: NamedError?
    weak var lastError: NamedError?
    weak var lateSubscription: Subscription?
    var machine = Machine()
    do {
      let subscription = Subscription()
      firstSubscription = subscription
      _ = machine.willFetch()
      _ = machine.willSubscribe()
      _ = machine.subscribed(subscription)
      let error = NamedError("1")
      firstError = error
      _ = machine.failed(error)  // hands back the subscription
    }
    #expect(firstSubscription == nil)
    #expect(firstError != nil)  // kept as the last error
    do {
      _ = machine.willFetch()
      _ = machine.willSubscribe()
      let error = NamedError("2")
      lastError = error
      _ = machine.failed(error)  // hands back the error it replaces
    }
    #expect(firstError == nil)
    do {
      let subscription = Subscription()
      _ = machine.subscribed(subscription)  // advance: handed back
      firstSubscription = subscription
    }
    #expect(firstSubscription == nil)
    _ = machine.willFetch()
    _ = machine.exhausted()  // hands back the last error
    #expect(lastError == nil)
    do {
      let subscription = Subscription()
      lateSubscription = subscription
      _ = machine.subscribed(subscription)  // ended: handed back to be disposed
    }
    #expect(lateSubscription == nil)
    machine = Machine()
    do {
      let subscription = Subscription()
      firstSubscription = subscription
      _ = machine.willFetch()
      _ = machine.willSubscribe()
      _ = machine.subscribed(subscription)
      let error = NamedError("1")
      lastError = error
      _ = machine.failed(error)
      _ = machine.willFetch()
      _ = machine.willSubscribe()
      let next = Subscription()
      lateSubscription = next
      _ = machine.subscribed(next)
      _ = machine.dispose()  // hands back the running subscription and the last error
    }
    #expect(firstSubscription == nil)
    #expect(lateSubscription == nil)
    #expect(lastError == nil)
  }
}

// MARK: - The operators on the machine

extension CatchSequenceStateMachineTests {
  @Test(
    "disposal from inside the iterator stops the loop; the failed source is disposed",
    arguments: [false, true])
  func disposalInsideIterator(hasNext: Bool) {
    let log = ScenarioLog()
    var firstObserver: AnyObserver<Int>?
    let first = loggedSource(log, "first") { firstObserver = $0 }
    let second = loggedSource(log, "second") { _ in }
    let subscription = SingleAssignmentDisposable()
    var fetched = 0
    let sources = AnySequence {
      AnyIterator { () -> Observable<Int>? in
        fetched += 1
        if fetched == 1 { return first }
        subscription.dispose()
        return hasNext ? second : nil
      }
    }
    var events: [Event<Int>] = []
    subscription.setDisposable(
      Observable.catch(sequence: sources).subscribe { events.append($0) })
    firstObserver?.onNext(1)
    firstObserver?.onError(MultiTestError.first)
    #expect(events == [.next(1)])
    #expect(log.lines == ["first subscribed", "first disposed"])
    #expect(fetched == 2)
  }

  @Test(
    "a source that ends inside its subscribe is disposed once, when its subscribe returns",
    arguments: [false, true])
  func endInsideSubscribe(failsFirst: Bool) {
    let log = ScenarioLog()
    var attempts = 0
    let source = loggedSource(log, "attempt") { observer in
      attempts += 1
      observer.onNext(attempts)
      if failsFirst && attempts == 1 {
        observer.onError(MultiTestError.first)
      } else {
        observer.onCompleted()
      }
    }
    var events: [Event<Int>] = []
    _ = source.retry().subscribe { events.append($0) }
    let once = ["attempt subscribed", "attempt disposed"]
    #expect(events == (failsFirst ? [.next(1), .next(2), .completed] : [.next(1), .completed]))
    #expect(log.lines == (failsFirst ? once + once : once))
  }
}
