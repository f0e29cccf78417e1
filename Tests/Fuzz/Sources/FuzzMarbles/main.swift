// Fuzz target: the marble-diagram parser. The input's first byte picks the frame size (1...16),
// its second the entry point (with a values map or every character a value; hot, cold or an
// expectation); the rest, as UTF-8 (invalid sequences repaired), is the diagram. Any diagram must
// parse or throw a `MarbleError` whose index lies inside it; none may trap.

import FuzzShims
import Streams
import StreamsTest

private let values: [Character: Int] = [
  "a": 1, "b": 2, "c": 3, "x": 10, "y": 20, "1": 1, "2": 2, "é": 5, "🙂": 6,
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  guard bytes.count >= 2 else { return 0 }
  let frameSize = TestTime(bytes[0] % 16) + 1
  let mode = bytes[1] % 4
  let marbles = String(decoding: bytes.dropFirst(2), as: UTF8.self)
  do {
    let events: [Recorded<Event<Int>>]
    switch mode {
    case 0:
      events = try Marbles.parse(marbles, values: values, frameSize: frameSize, offset: 200)
    case 1:
      events = try Marbles.parse(
        marbles, values: values, frameSize: frameSize, offset: 0, allowsSubscriptionPoint: false)
    case 2:
      events = try Recorded.events(marbles: marbles, frameSize: frameSize).map { recorded in
        Recorded(time: recorded.time, value: recorded.value.map { $0.unicodeScalars.count })
      }
    default:
      let scheduler = TestScheduler(initialClock: 0)
      let hot = try scheduler.createHotObservable(marbles: marbles, frameSize: frameSize)
      // Runs the events: until then the scheduler's actions and the observable hold each other
      // (as in RxTest), which LeakSanitizer would report.
      scheduler.start()
      events = hot.recordedEvents.map { recorded in
        Recorded(time: recorded.time, value: recorded.value.map { $0.unicodeScalars.count })
      }
    }
    let frames = marbles.count(where: { !$0.isWhitespace })
    for recorded in events {
      precondition(
        abs(recorded.time - (mode == 1 ? 0 : 200)) <= frames * frameSize,
        "event at \(recorded.time) outside a diagram of \(frames) frames")
    }
  } catch let error as MarbleError {
    precondition(
      error.index >= 0 && error.index <= marbles.count,
      "error index \(error.index) outside a diagram of \(marbles.count) characters")
    _ = error.description
  } catch {
    preconditionFailure("unexpected error type \(type(of: error)): \(error)")
  }
  return 0
}

// SwiftPM makes this file's top-level code the program's `main`, so libFuzzer's own `main` is not
// linked in: run its driver with the target above.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

var arguments = CommandLine.argc
var argumentValues: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&arguments, &argumentValues, fuzz))
