import Foundation
import Streams
import StreamsTrace
import Testing

@Suite("Trace recorder: dumps to files, two recorders at once", .serialized)
struct TraceRecorderFileTests {
  static func temporaryPath(_ name: String) -> String {
    NSTemporaryDirectory() + "streams-trace-\(getpid())-\(name).json"
  }

  @Test("dump(to:) writes what graph.dump() gives; a path that cannot be written throws")
  func dumpToFile() throws {
    let recorder = TraceRecorder()
    try Tracing.withTracer(recorder) {
      let subject = PublishSubject<Int>()
      let subscription = subject.map { $0 + 1 }.subscribe(onNext: { _ in })
      subject.onNext(1)
      let path = Self.temporaryPath("dump")
      defer { unlink(path) }
      try recorder.dump(to: path)
      let text = try TraceFile.read(path)
      #expect(try TraceGraph(dump: text) == recorder.graph)
      subscription.dispose()
      #expect(throws: TraceFile.Error.self) {
        try recorder.dump(to: "/nonexistent-folder/trace.json")
      }
      #expect(throws: TraceFile.Error("No such file or directory")) {
        _ = try TraceFile.read("/nonexistent-folder/trace.json")
      }
    }
  }

  @Test("dumpOnSignal writes a dump each time the signal arrives, until cancelled")
  func dumpOnSignal() async throws {
    let recorder = TraceRecorder()
    let path = Self.temporaryPath("signal")
    defer { unlink(path) }
    let written = AsyncStream<TraceFile.Error?>.makeStream()
    let trigger = recorder.dumpOnSignal(SIGUSR2, to: path) { written.continuation.yield($0) }
    kill(getpid(), SIGUSR2)
    var results = written.stream.makeAsyncIterator()
    let result = await results.next()
    #expect(result == .some(nil))
    #expect(try TraceGraph(dump: TraceFile.read(path)) == recorder.graph)
    trigger.cancel()
  }

  @Test("dumpAtExit writes a dump when the process exits")
  func dumpAtExit() async throws {
    let path = NSTemporaryDirectory() + "streams-trace-exit-test.json"
    unlink(path)
    defer { unlink(path) }
    await #expect(processExitsWith: .success) {
      let recorder = TraceRecorder()
      Tracing.install(recorder)
      let subject = PublishSubject<Int>()
      _ = subject.subscribe(onNext: { _ in })
      subject.onNext(7)
      recorder.dumpAtExit(to: NSTemporaryDirectory() + "streams-trace-exit-test.json")
      exit(0)
    }
    let graph = try TraceGraph(dump: TraceFile.read(path))
    #expect(graph.nodes.contains { $0.kind == "PublishSubject" && $0.recentValues == ["7"] })
  }

  @Test("a subscription made under one recorder keeps reporting to it while another records")
  func twoRecorders() throws {
    let first = TraceRecorder()
    let (subject, subscription, second) = Tracing.withTracer(first) {
      let subject = PublishSubject<Int>()
      let subscription = subject.map { $0 * 2 }.subscribe(onNext: { _ in })
      let second = TraceRecorder.record {
        for index in 0..<3_000 { subject.onNext(index) }
      }
      return (subject, subscription, second)
    }
    subscription.dispose()
    let map = try #require(first.graph.nodes.first { $0.kind == "map" })
    #expect(map.eventCount == 3_000)
    #expect(map.recentValues.last == "5998")
    // The second recorder saw the sends into the subject, not the subscription made before it.
    let sent = try #require(second.nodes.first { $0.id == subject.traceNodeID })
    #expect(sent.recentValues.last == "2999")
    #expect(second.deliveries.count == 3_000)
    #expect(!second.nodes.contains { $0.kind == "map" })
  }
}
