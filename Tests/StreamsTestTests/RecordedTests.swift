import Streams
import StreamsTest
import Testing

@Suite("Recorded")
struct RecordedTests {
  @Test("recorded events are equal when time and event are equal")
  func equality() {
    let a: [Recorded<Event<Int>>] = [.next(210, 1), .completed(300)]
    #expect(a == [.next(210, 1), .completed(300)])
    #expect(a != [.next(211, 1), .completed(300)])
    #expect(a != [.next(210, 2), .completed(300)])
    #expect(a != [.next(210, 1), .error(300, TestFailure.boom)])
    #expect(a != [.next(210, 1)])
  }

  @Test("Equatable errors compare with ==; others by dynamic type and description")
  func errors() {
    #expect(Recorded<Event<Int>>.error(10, TestFailure.boom) == .error(10, TestFailure.boom))
    #expect(Recorded<Event<Int>>.error(10, TestFailure.boom) != .error(10, TestFailure.other))
    #expect(Recorded<Event<Int>>.error(10, Described("x")) == .error(10, Described("x")))
    #expect(Recorded<Event<Int>>.error(10, Described("x")) != .error(10, Described("y")))
    #expect(Recorded<Event<Int>>.error(10, Described("boom")) != .error(10, TestFailure.boom))
  }

  @Test("completed and error accept a type hint; events(...) builds arrays")
  func factories() {
    let completed = Recorded.completed(300, Int.self)
    let failed = Recorded.error(300, TestFailure.boom, String.self)
    #expect(completed.value.isCompleted)
    #expect(failed.value.error != nil)
    let variadic = Recorded.events(.next(210, 1), .completed(250))
    let array = Recorded.events([.next(210, 1), .completed(250)])
    #expect(variadic == array)
    #expect(variadic.map(\.time) == [210, 250])
  }

  @Test("non-Equatable elements compare with a comparator")
  func comparator() {
    let actual: [Recorded<Event<Point>>] = [.next(210, Point(x: 1)), .completed(220)]
    #expect(actual.isEqual(to: [.next(210, Point(x: 1)), .completed(220)]) { $0.x == $1.x })
    #expect(!actual.isEqual(to: [.next(210, Point(x: 2)), .completed(220)]) { $0.x == $1.x })
    #expect(!actual.isEqual(to: [.next(210, Point(x: 1))]) { $0.x == $1.x })
    #expect(!actual.isEqual(to: [.next(210, Point(x: 1)), .completed(221)]) { $0.x == $1.x })
    let failed: [Recorded<Event<Point>>] = [.error(5, TestFailure.boom)]
    #expect(failed.isEqual(to: [.error(5, TestFailure.boom)]) { _, _ in false })
    #expect(!failed.isEqual(to: [.error(5, TestFailure.other)]) { _, _ in true })
  }

  @Test("descriptions read as RxTest's")
  func descriptions() {
    let events: [Recorded<Event<Int>>] = [.next(210, 1), .completed(300)]
    #expect("\(events)" == "[next(1) @ 210, completed @ 300]")
    #expect(Subscription(200, 300).debugDescription == "(200, 300)")
    #expect(Subscription(200).debugDescription == "(200, never)")
    #expect(Subscription(200).unsubscribe == Int.max)
  }
}

/// A non-Equatable element.
struct Point {
  var x: Int
}

/// A non-Equatable error described by its message.
struct Described: Error, CustomStringConvertible {
  let message: String
  init(_ message: String) { self.message = message }
  var description: String { message }
}
