import StreamsTest
import Testing

@testable import Streams

@Suite("PrimitiveSequence debug")
struct PrimitiveSequenceDebugTests {
  @Test("debug prints a Single's subscription, events and disposal and passes them through")
  func single() {
    var lines: [String] = []
    var received: [Int] = []
    _ = Single.just(1)
      .debug("answer", trimOutput: false, file: #fileID, line: #line, function: #function) {
        lines.append($0)
      }
      .subscribe(onSuccess: { received.append($0) })
    #expect(received == [1])
    #expect(
      lines == [
        "answer -> subscribed", "answer -> Event next(1)", "answer -> Event completed",
        "answer -> isDisposed",
      ])
  }

  @Test("debug on a Completable prints its failure; the default identifier names the call")
  func completable() {
    var lines: [String] = []
    var errors: [String] = []
    _ = Completable.error(TraitError(3))
      .debug(nil, trimOutput: false, file: "App/Save.swift", line: 12, function: "save()") {
        lines.append($0)
      }
      .subscribe(onError: { errors.append("\($0)") })
    #expect(errors == ["TraitError(code: 3)"])
    #expect(
      lines == [
        "Save.swift:12 (save()) -> subscribed",
        "Save.swift:12 (save()) -> Event error(TraitError(code: 3))",
        "Save.swift:12 (save()) -> isDisposed",
      ])
  }

  @Test("debug on a Maybe: disposal before the event prints isDisposed")
  func maybeDisposal() {
    var lines: [String] = []
    let subscription = Maybe<Int>.never()
      .debug("m", trimOutput: false, file: #fileID, line: #line, function: #function) {
        lines.append($0)
      }
      .subscribe()
    subscription.dispose()
    #expect(lines == ["m -> subscribed", "m -> isDisposed"])
  }
}
