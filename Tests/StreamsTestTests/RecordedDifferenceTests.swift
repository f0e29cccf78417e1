import Streams
import StreamsTest
import Testing

@Suite("RecordedDifference")
struct RecordedDifferenceTests {
  @Test("equal recordings have no difference")
  func equal() {
    #expect(recordedEventsDifference(actual: [.next(210, 1)], expected: [.next(210, 1)]) == nil)
    #expect(
      recordedEventsDifference(actual: [Recorded<Event<Int>>](), expected: []) == nil)
  }

  @Test("a changed element shows as a removed and an added line, with marble lines")
  func changed() {
    let difference = recordedEventsDifference(
      actual: [.next(210, 1), .next(220, 3), .completed(250)],
      expected: [.next(210, 1), .next(220, 2), .completed(250)])
    #expect(
      difference == """
        recorded events differ (- expected, + actual):
            next(1) @ 210
          - next(2) @ 220
          + next(3) @ 220
            completed @ 250
        marbles (frame 10 ticks, first frame at 200):
          expected: -12--|
          actual:   -13--|
        """)
  }

  @Test("a missing and an extra event show as one line each")
  func missingAndExtra() {
    let difference = recordedEventsDifference(
      actual: [.next(210, "a"), .next(230, "c"), .next(240, "d")],
      expected: [.next(210, "a"), .next(220, "b"), .next(230, "c")])
    #expect(
      difference == """
        recorded events differ (- expected, + actual):
            next(a) @ 210
          - next(b) @ 220
            next(c) @ 230
          + next(d) @ 240
        marbles (frame 10 ticks, first frame at 200):
          expected: -abc
          actual:   -a-cd
        """)
  }

  @Test("marble lines are left out when a recording cannot be drawn")
  func noMarbles() {
    let difference = recordedEventsDifference(
      actual: [Recorded<Event<Int>>](), expected: [.next(215, 10)])
    #expect(
      difference == """
        recorded events differ (- expected, + actual):
          - next(10) @ 215
          (nothing recorded)
        """)
  }

  @Test("times before 200 move the marble axis to the first frame boundary")
  func earlyTimes() {
    let difference = recordedEventsDifference(
      actual: [.next(150, 1)], expected: [.next(160, 1)])
    #expect(difference?.hasSuffix("first frame at 150):\n  expected: -1\n  actual:   1") == true)
  }

  @Test("non-Equatable elements use the comparator; errors use errorsMatch")
  func comparator() {
    let actual: [Recorded<Event<Point>>] = [.next(210, Point(x: 1)), .error(220, TestFailure.boom)]
    #expect(
      recordedEventsDifference(
        actual: actual, expected: [.next(210, Point(x: 1)), .error(220, TestFailure.boom)],
        by: { $0.x == $1.x }) == nil)
    let difference = recordedEventsDifference(
      actual: actual, expected: [.next(210, Point(x: 1)), .error(220, TestFailure.other)],
      by: { $0.x == $1.x })
    #expect(difference?.contains("- error(other) @ 220") == true)
    #expect(difference?.contains("+ error(boom) @ 220") == true)
  }
}
