import Streams
import StreamsTest
import Testing

@Suite("Swift Testing helpers")
struct SwiftTestingHelpersTests {
  @Test("expectEvents passes on equal recordings")
  func expectEventsPasses() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .completed(250)])
    let res = scheduler.start { xs.map { $0 * 2 } }
    #expect(expectEvents(res.events, [.next(210, 2), .completed(250)]))
  }

  @Test("expectEvents records an issue with the diff on different recordings")
  func expectEventsFails() {
    withKnownIssue {
      expectEvents([.next(210, 1), .next(220, 3)], [.next(210, 1), .next(220, 2)], "after map")
    } matching: { issue in
      issue.comments.contains { comment in
        comment.rawValue.hasPrefix("after map\nrecorded events differ")
          && comment.rawValue.contains("  - next(2) @ 220\n  + next(3) @ 220")
      }
    }
  }

  @Test("expectEvents with a comparator handles non-Equatable elements")
  func expectEventsComparator() {
    let actual: [Recorded<Event<Point>>] = [.next(210, Point(x: 1))]
    #expect(expectEvents(actual, [.next(210, Point(x: 1))], by: { $0.x == $1.x }))
    withKnownIssue {
      expectEvents(actual, [.next(210, Point(x: 2))], by: { $0.x == $1.x })
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("- next(Point(x: 2)) @ 210") }
    }
  }

  @Test("recordedEventsDifference works inside #expect")
  func insideExpect() {
    let events: [Recorded<Event<Int>>] = [.next(210, 1)]
    #expect(recordedEventsDifference(actual: events, expected: [.next(210, 1)]) == nil)
  }

  @Test("expectRecordedElements ignores times and rejects terminal events")
  func recordedElements() {
    #expect(expectRecordedElements([.next(210, 1), .next(300, 2)], [1, 2]))
    withKnownIssue {
      expectRecordedElements([.next(210, 1), .completed(300)], [1])
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("a terminal event was recorded") }
    }
    withKnownIssue {
      expectRecordedElements([.next(210, 1)], [1, 2])
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("  - 2") }
    }
  }
}
