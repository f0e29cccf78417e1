import Streams
import Testing

private enum TestError: Error, Equatable {
  case boom
  case other
}

private struct DescribedError: Error, CustomStringConvertible {
  let description: String
}

@Suite("Event")
struct EventTests {
  @Test("accessors report element, error and stop state")
  func accessors() {
    let next = Event<Int>.next(1)
    let error = Event<Int>.error(TestError.boom)
    let completed = Event<Int>.completed
    #expect(next.element == 1)
    #expect(next.error == nil)
    #expect(!next.isStopEvent)
    #expect(error.element == nil)
    #expect(error.error as? TestError == .boom)
    #expect(error.isStopEvent)
    #expect(completed.isStopEvent)
    #expect(completed.isCompleted)
    #expect(!error.isCompleted)
  }

  @Test("map transforms elements and turns a throw into an error")
  func map() {
    #expect(Event.next(2).map { $0 * 10 } == .next(20))
    #expect(Event<Int>.completed.map { $0 * 10 } == .completed)
    let failed: Event<Int> = Event.next(2).map { _ in throw TestError.boom }
    #expect(failed == .error(TestError.boom))
  }

  @Test("errors compare with == when Equatable, else by type and description")
  func errorEquality() {
    #expect(Event<Int>.error(TestError.boom) == .error(TestError.boom))
    #expect(Event<Int>.error(TestError.boom) != .error(TestError.other))
    #expect(
      Event<Int>.error(DescribedError(description: "a"))
        == .error(DescribedError(description: "a")))
    #expect(
      Event<Int>.error(DescribedError(description: "a"))
        != .error(DescribedError(description: "b")))
    #expect(Event<Int>.error(TestError.boom) != .error(DescribedError(description: "boom")))
    #expect(Event<Int>.next(1) != .completed)
  }

  @Test("debugDescription names the case")
  func description() {
    #expect(Event.next(1).debugDescription == "next(1)")
    #expect(Event<Int>.completed.debugDescription == "completed")
    #expect(Event<Int>.error(TestError.boom).debugDescription == "error(boom)")
  }
}
