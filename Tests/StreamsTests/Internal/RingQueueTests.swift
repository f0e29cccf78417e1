import Testing

@testable import Streams

@Suite("RingQueue")
struct RingQueueTests {
  /// An element that reports its release.
  final class Token {
    let id: Int
    init(_ id: Int) { self.id = id }
  }

  @Test("elements come out in the order they went in, across wrap-around and growth")
  func fifoAcrossWrapAroundAndGrowth() {
    var queue = RingQueue<Int>()
    var expected: [Int] = []
    var received: [Int] = []
    var next = 0
    for round in 0..<50 {
      for _ in 0..<(round % 7 + 1) {
        queue.append(next)
        expected.append(next)
        next += 1
      }
      for _ in 0..<(round % 5) {
        if let value = queue.popFirst() { received.append(value) }
      }
    }
    while let value = queue.popFirst() { received.append(value) }
    #expect(received == expected)
    #expect(queue.isEmpty)
    #expect(queue.count == 0)
    #expect(queue.popFirst() == nil)
  }

  @Test("growing while the elements wrap around keeps their order")
  func growWhileWrapped() {
    var queue = RingQueue<Int>()
    for value in 0..<8 { queue.append(value) }
    #expect(queue.capacity == 8)
    for _ in 0..<5 { _ = queue.popFirst() }
    for value in 8..<13 { queue.append(value) }  // wraps around: the head is at slot 5
    #expect(queue.capacity == 8)
    queue.append(13)  // full: grows with the elements split across the end of the ring
    #expect(queue.capacity == 16)
    #expect(queue.first == 5)
    var received: [Int] = []
    while let value = queue.popFirst() { received.append(value) }
    #expect(received == Array(5..<14))
  }

  @Test("an empty queue allocates nothing; popping keeps the capacity")
  func capacity() {
    var queue = RingQueue<Int>()
    #expect(queue.capacity == 0)
    #expect(queue.first == nil)
    queue.append(1)
    #expect(queue.capacity == 8)
    #expect(queue.popFirst() == 1)
    #expect(queue.capacity == 8)
    for value in 0..<8 { queue.append(value) }
    #expect(queue.capacity == 8)
  }

  @Test("popFirst moves the element out: the queue keeps no reference to it")
  func popReleases() {
    var queue = RingQueue<Token>()
    weak var released: Token?
    do {
      let token = Token(1)
      released = token
      queue.append(token)
      queue.append(Token(2))
    }
    let popped = queue.popFirst()
    #expect(popped?.id == 1)
    #expect(queue.count == 1)
    _ = consume popped
    #expect(released == nil)
  }

  @Test("removeAll hands the elements back, in order, and releases none of them")
  func removeAllHandsBack() {
    var queue = RingQueue<Token>()
    for id in 0..<6 { queue.append(Token(id)) }
    for _ in 0..<4 { _ = queue.popFirst() }
    for id in 6..<10 { queue.append(Token(id)) }  // wraps around the end of the ring
    weak let oldest = queue.first
    var removed = queue.removeAll()
    #expect(queue.isEmpty)
    #expect(queue.capacity == 0)
    #expect(oldest != nil)  // held by `removed`: nothing was released
    #expect(removed.count == 6)
    var ids: [Int] = []
    while let token = removed.popFirst() { ids.append(token.id) }
    #expect(ids == [4, 5, 6, 7, 8, 9])
    #expect(oldest == nil)
    queue.append(Token(10))
    #expect(queue.popFirst()?.id == 10)
  }

  @Test("reading front to back: positions, last, iteration across the end of the ring")
  func collection() {
    var queue = RingQueue<Int>()
    #expect(queue.last == nil)
    #expect(Array(queue) == [])
    for value in 0..<8 { queue.append(value) }
    for _ in 0..<6 { _ = queue.popFirst() }
    for value in 8..<12 { queue.append(value) }  // slots 6, 7, then 0 to 3
    #expect(queue.capacity == 8)
    #expect(Array(queue) == [6, 7, 8, 9, 10, 11])
    #expect(queue.map { $0 * 10 } == [60, 70, 80, 90, 100, 110])
    #expect(queue[0] == 6)
    #expect(queue[5] == 11)
    #expect(queue.first == 6)
    #expect(queue.last == 11)
    #expect(queue.count == 6)
    #expect(queue.popFirst() == 6)  // reading removed nothing
  }

  @Test("copies are independent")
  func copyOnWrite() {
    var queue = RingQueue<Int>()
    queue.append(1)
    var copy = queue
    copy.append(2)
    #expect(queue.popFirst() == 1)
    #expect(queue.popFirst() == nil)
    #expect(copy.popFirst() == 1)
    #expect(copy.popFirst() == 2)
  }
}
