import StreamsTest
import Testing

@testable import Streams

/// The transitions of ``GroupByStateMachine``, then the operator where they meet re-entrancy:
/// a source that ends from inside a group's observer, the outer observer or the key selector,
/// and what an ended subscription lets go.
@Suite("GroupByStateMachine")
struct GroupByStateMachineTests {
  typealias Machine = GroupByStateMachine<Int, Int>

  @Test("a new key opens a group, a known one forwards to it; the end hands back every group")
  func transitions() {
    var machine = Machine()
    var opened: [PublishSubject<Int>] = []
    for key in [1, 2, 1, 3] {
      switch machine.received(key: key) {
      case .open(let group): opened.append(group)
      case .forward(let group): #expect(key == 1 && group === opened[0])
      case .drop: Issue.record("dropped key \(key) while running")
      }
    }
    #expect(opened.count == 3)
    #expect(!machine.hasEnded)
    switch machine.ended() {
    case .end(let groups):
      #expect(groups.map(ObjectIdentifier.init) == opened.map(ObjectIdentifier.init))
    case .none: Issue.record("the first end must end the groups")
    }
    #expect(machine.hasEnded)
    switch machine.received(key: 1) {
    case .drop: break
    case .open, .forward: Issue.record("an element after the end must be dropped")
    }
    switch machine.ended() {
    case .none: break
    case .end: Issue.record("a second end must do nothing")
    }
  }

  @Test("a source completing from inside a group's observer ends the groups, then the sequence")
  func reentrantCompletionInGroup() {
    let log = ScenarioLog()
    let source = HandSource(log: log)
    var lines: [String] = []
    _ = source.observable.groupBy { $0 % 2 }.subscribe(
      onNext: { group in
        lines.append("open \(group.key)")
        _ = group.subscribe(
          onNext: { value in
            lines.append("\(group.key): \(value)")
            guard value == 1 else { return }
            source.send(3)  // the group's subject queues it behind this element
            source.complete()
            lines.append("after 1")
          }, onCompleted: { lines.append("close \(group.key)") })
      }, onCompleted: { lines.append("completed") })
    source.send(1)
    #expect(lines == ["open 1", "1: 1", "completed", "after 1", "1: 3", "close 1"])
    #expect(log.lines == ["source disposed"])
  }

  @Test("a source failing from inside the outer observer ends a new group before its element")
  func reentrantErrorOnOpen() {
    let log = ScenarioLog()
    let source = HandSource(log: log)
    var lines: [String] = []
    _ = source.observable.groupBy { $0 % 2 }.subscribe(
      onNext: { group in
        lines.append("open \(group.key)")
        _ = group.subscribe(
          onNext: { lines.append("\(group.key): \($0)") },
          onError: { _ in lines.append("error \(group.key)") })
        guard group.key == 0 else { return }
        source.fail(MultiTestError.first)
      }, onError: { _ in lines.append("failed") })
    source.send(1)
    source.send(2)
    #expect(lines == ["open 1", "1: 1", "open 0", "error 1", "error 0", "failed"])
    #expect(log.lines == ["source disposed"])
  }

  @Test("a key selector that completes the source drops its element and ends the sequence once")
  func keySelectorEndsTheSource() {
    let log = ScenarioLog()
    let source = HandSource(log: log)
    var events: [Event<Int>] = []
    _ = source.observable.groupBy { value -> Int in
      if value == 2 { source.complete() }
      return value
    }
    .subscribe { events.append($0.map(\.key)) }
    source.send(1)
    source.send(2)
    #expect(events == [.next(1), .completed])
    #expect(log.lines == ["source disposed"])
  }

  @Test(
    "an ended subscription lets go of the key selector, the observers and the groups",
    arguments: ["fails", "selector throws"])
  func releaseAfterEnd(end: String) {
    final class Token {}
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
        withExtendedLifetime(selectorToken) {}
        if value < 0 { throw MultiTestError.selector }
        return value % 2
      }.subscribe(
        onNext: { group in
          inner = group.subscribe(
            onNext: { _ in withExtendedLifetime(observerToken) {} }, onError: { _ in })
        }, onError: { _ in })
      subject.onNext(1)
    }
    #expect(weakSelectorToken != nil && weakObserverToken != nil)
    if end == "fails" { subject.onError(MultiTestError.first) } else { subject.onNext(-1) }
    #expect(weakSelectorToken == nil)
    #expect(weakObserverToken == nil)
    #expect(!subject.hasObservers)
    withExtendedLifetime((outer, inner)) {}
  }
}
