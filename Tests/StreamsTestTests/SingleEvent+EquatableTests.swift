import Streams
import Testing

@testable import StreamsTest

@Suite("SingleEvent comparisons")
struct SingleEventEquatableTests {
  @Test("== and != compare successes by element and failures by errorsMatch")
  func events() {
    #expect(SingleEvent.success(1) == .success(1))
    #expect(SingleEvent.success(1) != .success(2))
    #expect(SingleEvent<Int>.failure(TestFailure.boom) == .failure(TestFailure.boom))
    #expect(SingleEvent<Int>.failure(TestFailure.boom) != .success(1))
    #expect(SingleEvent<Int>.failure(RxError.timeout) != .failure(RxError.unknown))
  }

  @Test("lists of SingleEvents compare whole, so #expect(events == [...]) works")
  func lists() {
    var events: [SingleEvent<Int>] = []
    _ = Single.just(1).subscribe { events.append($0) }
    _ = Single<Int>.error(TestFailure.boom).subscribe { events.append($0) }
    #expect(events == [.success(1), .failure(TestFailure.boom)])
    #expect(events != [.success(1)])
    #expect(events != [.success(1), .failure(RxError.unknown)])
  }

  @Test("the XCTest overloads' failure text is a diff of the two lists")
  func difference() {
    let equal = traitEventsDifference(
      [CompletableEvent.completed], [.completed], equal: { $0 == $1 })
    #expect(equal == nil)
    let text = traitEventsDifference(
      [MaybeEvent.success(1), .completed], [.success(2), .completed], equal: { $0 == $1 })
    #expect(
      text == """
        events differ (- expected, + actual):
          - success(2)
          + success(1)
            completed
        """)
  }
}
