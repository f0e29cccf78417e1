import Testing

@testable import Streams

@Suite("SerialOutbox")
struct SerialOutboxTests {
  @Test("the first event is handed back; events sent meanwhile queue in order")
  func claimAndQueue() {
    var outbox = SerialOutbox<Int>()
    #expect(outbox.send(.next(1)) == .next(1))
    #expect(outbox.send(.next(2)) == nil)
    #expect(outbox.send(.completed) == nil)
    #expect(outbox.send(.next(3)) == nil)
    #expect(outbox.next() == .next(2))
    #expect(outbox.next() == .completed)
    #expect(outbox.next() == nil)
    #expect(outbox.isClosed)
  }

  @Test("after the queue drains, the next event is handed back again")
  func releaseClaim() {
    var outbox = SerialOutbox<Int>()
    #expect(outbox.send(.next(1)) == .next(1))
    #expect(outbox.next() == nil)
    #expect(outbox.send(.next(2)) == .next(2))
  }

  @Test("disposal hands the queued events back and refuses new ones")
  func disposal() {
    var outbox = SerialOutbox<Int>()
    #expect(outbox.send(.next(1)) == .next(1))
    #expect(outbox.send(.next(2)) == nil)
    #expect(outbox.send(.next(3)) == nil)
    var dropped = outbox.dispose()
    #expect(dropped.popFirst() == .next(2))
    #expect(dropped.popFirst() == .next(3))
    #expect(dropped.isEmpty)
    #expect(outbox.next() == nil)
    #expect(outbox.send(.next(4)) == nil)
    #expect(outbox.next() == nil)
  }

  @Test("a failure while delivering hands back what was queued")
  func failure() {
    var outbox = SerialOutbox<Int>()
    #expect(outbox.send(.next(1)) == .next(1))
    #expect(outbox.send(.next(2)) == nil)
    var dropped = outbox.fail()
    #expect(dropped.popFirst() == .next(2))
    #expect(dropped.isEmpty)
    #expect(outbox.next() == nil)
    #expect(outbox.send(.next(3)) == nil)
  }

  @Test("disposal releases no queued element: the caller does, after unlocking")
  func disposalReleasesNothing() {
    final class Token {}
    var outbox = SerialOutbox<Token>()
    weak var queued: Token?
    do {
      let token = Token()
      queued = token
      #expect(outbox.send(.next(Token())) != nil)
      #expect(outbox.send(.next(token)) == nil)
    }
    #expect(queued != nil)
    var dropped = outbox.dispose()
    #expect(queued != nil)
    while dropped.popFirst() != nil {}
    #expect(queued == nil)
  }
}
