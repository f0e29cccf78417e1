import Streams
import StreamsTest
import StreamsTrace
import Testing

/// Sessions install the process-wide tracer, which would record the other tests running in
/// parallel: each check runs in a child process of its own.
@Suite("Trace session")
struct TraceSessionTests {
  @Test("a session records from its creation until finish(), then uninstalls its recorder")
  func recordsUntilFinish() async {
    await #expect(processExitsWith: .success) {
      let session = TraceSession()
      precondition(Tracing.current === session.recorder, "the session's recorder is installed")
      precondition(!session.isFinished)
      let subject = PublishSubject<Int>()
      let subscription = subject.subscribe(onNext: { _ in })
      subject.onNext(1)
      let graph = session.finish()
      precondition(session.isFinished)
      precondition(Tracing.current == nil, "finish() uninstalls the recorder")
      precondition(graph.nodes.contains { $0.kind == "PublishSubject" })
      precondition(graph.edges.contains { $0.kind == .emission && $0.count == 1 })

      // Subscribed after finish: not recorded.
      let later = PublishSubject<Int>()
      _ = later.subscribe(onNext: { _ in })
      precondition(session.graph.nodes.count == graph.nodes.count, "recorded after finish()")
      // A subscription made during the session stays traced; finish() keeps what it returned.
      subject.onNext(2)
      precondition(session.graph.edges.contains { $0.kind == .emission && $0.count == 2 })
      precondition(session.finish() == graph)
      subscription.dispose()
    }
  }

  @Test("finish() leaves alone a tracer that replaced the session's")
  func replaced() async {
    await #expect(processExitsWith: .success) {
      let session = TraceSession()
      let other = TraceRecorder()
      Tracing.install(other)
      session.finish()
      precondition(Tracing.current === other, "finish() uninstalled another tracer")
    }
  }

  @Test("a session that goes away uninstalls its recorder, and only its own")
  func deinitUninstalls() async {
    await #expect(processExitsWith: .success) {
      do {
        let session = TraceSession()
        precondition(Tracing.current === session.recorder)
      }
      precondition(Tracing.current == nil, "the session's deinit left its recorder installed")

      let other = TraceRecorder()
      do {
        let session = TraceSession()
        Tracing.install(other)
        withExtendedLifetime(session) {}
      }
      precondition(Tracing.current === other, "the session's deinit uninstalled another tracer")
    }
  }

  @Test("the configuration reaches the recorder")
  func configuration() async {
    await #expect(processExitsWith: .success) {
      let session = TraceSession(configuration: TraceConfiguration(recentValues: 0))
      let subject = PublishSubject<Int>()
      _ = subject.subscribe(onNext: { _ in })
      subject.onNext(1)
      let graph = session.finish()
      precondition(graph.nodes.allSatisfy { $0.recentValues.isEmpty })
      precondition(graph.deliveries.allSatisfy { $0.value == nil })
    }
  }

  @Test("a session stored per test records that test's own work")
  func storedPerTest() async {
    await #expect(processExitsWith: .success) {
      // What Swift Testing does with a suite that stores a session: a new value per test.
      struct SuiteValue {
        let trace = TraceSession()
      }
      let first = SuiteValue()
      precondition(Tracing.current === first.trace.recorder)
      precondition(first.trace.graph.nodes.isEmpty)
      let subject = PublishSubject<Int>()
      _ = subject.map { $0 + 1 }.subscribe(onNext: { _ in })
      subject.onNext(1)
      let graph = first.trace.finish()
      precondition(graph.nodes.contains { $0.kind == "map" })

      let second = SuiteValue()
      precondition(Tracing.current === second.trace.recorder)
      _ = subject.filter { $0 > 0 }.subscribe(onNext: { _ in })
      subject.onNext(2)
      let secondGraph = second.trace.finish()
      precondition(secondGraph.nodes.contains { $0.kind == "filter" })
      precondition(!secondGraph.nodes.contains { $0.kind == "map" }, "the first test's map")
    }
  }
}
