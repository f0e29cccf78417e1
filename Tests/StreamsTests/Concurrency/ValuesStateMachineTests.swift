import Testing

@testable import Streams

@Suite("ValuesStateMachine")
struct ValuesStateMachineTests {
  /// A disposable that counts its disposals.
  final class CountingDisposable: Disposable {
    let count = AtomicCounter()
    func dispose() { count.increment() }
  }

  private func element(_ action: ValuesStateMachine<Int>.NextAction) -> Int? {
    if case .element(let element) = action { return element }
    return nil
  }

  @Test("first next() subscribes; the first element during subscribe is handed over")
  func subscribeHandsFirstElement() {
    var machine = ValuesStateMachine<Int>(policy: .bufferingOldest(0))
    guard case .subscribe = machine.next() else {
      Issue.record("expected .subscribe")
      return
    }
    guard case .none = machine.element(1) else {
      Issue.record("the first element is handed over, not dropped")
      return
    }
    guard case .dropped(2) = machine.element(2) else {
      Issue.record("the second element meets the limit of 0")
      return
    }
    let upstream = CountingDisposable()
    #expect(machine.subscribed(upstream) == nil)
    #expect(element(machine.next()) == 1)
    guard case .suspend = machine.next() else {
      Issue.record("expected .suspend")
      return
    }
    #expect(machine.dropped == 1)
  }

  @Test(
    "an element sent after subscribing, before the consumer suspends, meets the policy: kept by oldest(1)"
  )
  func elementBeforeSuspension() {
    // The window `firstValue` and `Single.value` meet when another thread sends between the
    // consumer's `subscribe` and its suspension: with no room the element is lost and the
    // completion behind it reads as "empty"; with room for one it is the answer.
    var none = ValuesStateMachine<Int>(policy: .bufferingOldest(0))
    _ = none.next()
    #expect(none.subscribed(CountingDisposable()) == nil)
    guard case .dropped(7) = none.element(7) else {
      Issue.record("with a limit of 0 and no waiter, the element is dropped")
      return
    }
    _ = none.terminal(.completed)
    guard case .end(_, nil) = none.next() else {
      Issue.record("the completion is all that is left")
      return
    }

    var one = ValuesStateMachine<Int>(policy: .bufferingOldest(1))
    _ = one.next()
    #expect(one.subscribed(CountingDisposable()) == nil)
    guard case .none = one.element(7) else {
      Issue.record("with room for one, the element is kept")
      return
    }
    guard case .dropped(8) = one.element(8) else {
      Issue.record("later elements are dropped: the first one stays the answer")
      return
    }
    _ = one.terminal(.completed)
    #expect(element(one.next()) == 7)
    #expect(one.dropped == 1)
  }

  @Test("a terminal event waits behind the buffer and is delivered once")
  func terminalAfterBuffer() {
    var machine = ValuesStateMachine<Int>(policy: .unbounded)
    _ = machine.next()
    let upstream = CountingDisposable()
    #expect(machine.subscribed(upstream) == nil)
    _ = machine.element(1)
    _ = machine.element(2)
    guard case .dispose(let disposable?) = machine.terminal(.failed(BridgeTestError(id: 1))) else {
      Issue.record("a terminal event releases the upstream at once")
      return
    }
    disposable.dispose()
    #expect(upstream.count.value == 1)
    guard case .none = machine.element(3) else {
      Issue.record("elements after a terminal event are ignored")
      return
    }
    #expect(element(machine.next()) == 1)
    #expect(element(machine.next()) == 2)
    guard case .end(nil, let error?) = machine.next(), error is BridgeTestError else {
      Issue.record("expected the error once")
      return
    }
    guard case .end(nil, nil) = machine.next() else {
      Issue.record("expected the end")
      return
    }
  }

  @Test("a terminal event during subscribe makes subscribed(_:) return the disposable")
  func terminalDuringSubscribe() {
    var machine = ValuesStateMachine<Int>(policy: .unbounded)
    _ = machine.next()
    guard case .dispose(nil) = machine.terminal(.completed) else {
      Issue.record("no disposable is known yet")
      return
    }
    let upstream = CountingDisposable()
    #expect(machine.subscribed(upstream) as AnyObject? === upstream)
  }

  @Test("cancelling a busy consumer releases the buffer; its next() disposes, then ends")
  func cancelBusy() {
    var machine = ValuesStateMachine<Int>(policy: .unbounded)
    _ = machine.next()
    let upstream = CountingDisposable()
    _ = machine.subscribed(upstream)
    _ = machine.element(1)
    _ = machine.element(2)
    guard case .release(let released, nil, nil) = machine.cancelled() else {
      Issue.record("expected the buffer to release")
      return
    }
    #expect(released.count == 2)
    #expect(machine.wasCancelled)
    guard case .none = machine.element(3) else {
      Issue.record("elements after cancellation are ignored")
      return
    }
    guard case .end(let disposable?, nil) = machine.next() else {
      Issue.record("the consumer disposes before ending")
      return
    }
    #expect(disposable as AnyObject === upstream)
    guard case .end(nil, nil) = machine.next() else {
      Issue.record("expected the end")
      return
    }
  }

  @Test("cancelling before the first next() never subscribes")
  func cancelIdle() {
    var machine = ValuesStateMachine<Int>(policy: .unbounded)
    guard case .none = machine.cancelled() else {
      Issue.record("nothing to do")
      return
    }
    guard case .end(nil, nil) = machine.next() else {
      Issue.record("expected the end without subscribing")
      return
    }
  }

  @Test("dropping the iterator hands back the upstream and the buffer")
  func iteratorDropped() {
    var machine = ValuesStateMachine<Int>(policy: .bufferingNewest(2))
    _ = machine.next()
    let upstream = CountingDisposable()
    _ = machine.subscribed(upstream)
    _ = machine.element(1)
    let (disposable, released) = machine.iteratorDropped()
    #expect(disposable as AnyObject === upstream)
    #expect(released.0.count == 1)
    #expect(released.1 == nil)
    guard case .none = machine.element(2) else {
      Issue.record("elements after the end are ignored")
      return
    }
  }

  @Test("cancelling or dropping the iterator hands back an undelivered error with the buffer")
  func undeliveredErrorHandedBack() {
    final class Failure: Error {}
    for dropIterator in [false, true] {
      var machine = ValuesStateMachine<Int>(policy: .unbounded)
      _ = machine.next()
      _ = machine.subscribed(CountingDisposable())
      _ = machine.element(1)
      weak var failure: Failure?
      do {
        let error = Failure()
        failure = error
        _ = machine.terminal(.failed(error))
      }
      #expect(failure != nil)
      if dropIterator {
        let (_, released) = machine.iteratorDropped()
        #expect(released.0.count == 1)
        #expect(released.2?.error as AnyObject? === failure)
      } else {
        guard case .release(let elements, nil, let terminal?) = machine.cancelled() else {
          Issue.record("expected the buffer and the error to be handed back")
          continue
        }
        #expect(elements.count == 1)
        #expect(terminal.error as AnyObject? === failure)
      }
      #expect(failure == nil)  // released with what was handed back, outside the machine
    }
  }

  @Test("takeAll moves the backlog only for the unbounded policy")
  func takeAll() {
    var unbounded = ValuesStateMachine<Int>(policy: .unbounded)
    _ = unbounded.next()
    _ = unbounded.element(1)  // sent during subscribe: handed over
    _ = unbounded.subscribed(CountingDisposable())
    _ = unbounded.element(2)
    _ = unbounded.element(3)
    var batch = RingQueue<Int>()
    let beforeHandOff = unbounded.takeAll(into: &batch)
    #expect(!beforeHandOff)  // the hand-off comes first
    #expect(element(unbounded.next()) == 1)
    let afterHandOff = unbounded.takeAll(into: &batch)
    #expect(afterHandOff)
    #expect(batch.count == 2)
    #expect(unbounded.buffer.isEmpty)
    var bounded = ValuesStateMachine<Int>(policy: .bufferingOldest(5))
    _ = bounded.next()
    _ = bounded.subscribed(CountingDisposable())
    for value in 1...4 { _ = bounded.element(value) }
    var other = RingQueue<Int>()
    _ = bounded.next()
    let boundedTakes = bounded.takeAll(into: &other)
    #expect(!boundedTakes)
  }
}
