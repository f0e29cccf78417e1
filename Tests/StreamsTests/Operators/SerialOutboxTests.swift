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

  @Test("disposal drops queued events and refuses new ones")
  func disposal() {
    var outbox = SerialOutbox<Int>()
    #expect(outbox.send(.next(1)) == .next(1))
    #expect(outbox.send(.next(2)) == nil)
    outbox.dispose()
    #expect(outbox.next() == nil)
    #expect(outbox.send(.next(3)) == nil)
  }

  @Test("a failure while delivering drops what was queued")
  func failure() {
    var outbox = SerialOutbox<Int>()
    #expect(outbox.send(.next(1)) == .next(1))
    #expect(outbox.send(.next(2)) == nil)
    outbox.fail()
    #expect(outbox.next() == nil)
    #expect(outbox.send(.next(3)) == nil)
  }

  @Test("the queue pops in order across compactions")
  func smallQueue() {
    var queue = SmallQueue<Int>()
    for value in 0..<100 { queue.append(value) }
    var popped: [Int] = []
    for value in 100..<200 {
      popped.append(queue.popFirst()!)
      queue.append(value)
    }
    while let value = queue.popFirst() { popped.append(value) }
    #expect(popped == Array(0..<200))
    #expect(queue.isEmpty)
  }
}
