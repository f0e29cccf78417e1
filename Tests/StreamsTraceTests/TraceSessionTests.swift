import Streams
import StreamsTest
import StreamsTrace
import Testing

/// Sessions install the process-wide tracer: these tests run one at a time, and the test command
/// runs suites serially (`--no-parallel`).
@Suite("Trace session", .serialized)
struct TraceSessionTests {
  @Test("a session records from its creation until finish(), then uninstalls its recorder")
  func recordsUntilFinish() throws {
    let session = TraceSession()
    #expect(Tracing.current === session.recorder)
    #expect(!session.isFinished)
    let subject = PublishSubject<Int>()
    let subscription = subject.subscribe(onNext: { _ in })
    subject.onNext(1)
    let graph = session.finish()
    #expect(session.isFinished)
    #expect(Tracing.current == nil)
    #expect(graph.nodes.contains { $0.kind == "PublishSubject" })
    #expect(graph.edges.contains { $0.kind == .emission && $0.count == 1 })

    // Subscribed after finish: not recorded.
    let later = PublishSubject<Int>()
    _ = later.subscribe(onNext: { _ in })
    #expect(session.graph.nodes.count == graph.nodes.count)
    // A subscription made during the session stays traced; finish() keeps what it returned.
    subject.onNext(2)
    #expect(session.graph.edges.contains { $0.kind == .emission && $0.count == 2 })
    #expect(session.finish() == graph)
    subscription.dispose()
  }

  @Test("finish() leaves alone a tracer that replaced the session's")
  func replaced() {
    let session = TraceSession()
    let other = TraceRecorder()
    Tracing.install(other)
    session.finish()
    #expect(Tracing.current === other)
    Tracing.install(nil)
  }

  @Test("a session that goes away uninstalls its recorder, and only its own")
  func deinitUninstalls() {
    do {
      let session = TraceSession()
      #expect(Tracing.current === session.recorder)
    }
    #expect(Tracing.current == nil)

    let other = TraceRecorder()
    do {
      let session = TraceSession()
      Tracing.install(other)
      withExtendedLifetime(session) {}
    }
    #expect(Tracing.current === other)
    Tracing.install(nil)
  }

  @Test("the configuration reaches the recorder")
  func configuration() {
    let session = TraceSession(configuration: TraceConfiguration(recentValues: 0))
    let subject = PublishSubject<Int>()
    _ = subject.subscribe(onNext: { _ in })
    subject.onNext(1)
    let graph = session.finish()
    #expect(graph.nodes.allSatisfy { $0.recentValues.isEmpty })
    #expect(graph.deliveries.allSatisfy { $0.value == nil })
  }
}

/// A suite that records each test's lifetime with a stored session, as the guide shows.
@Suite("Trace session per test", .serialized)
struct TraceSessionPerTestTests {
  let trace = TraceSession()

  @Test("each test gets a session of its own, installed")
  func installed() {
    #expect(Tracing.current === trace.recorder)
    #expect(trace.graph.nodes.isEmpty)
    trace.finish()
  }

  @Test("the stored session records what the test does")
  func records() {
    let subject = PublishSubject<Int>()
    _ = subject.map { $0 + 1 }.subscribe(onNext: { _ in })
    subject.onNext(1)
    expectEmissionCount(1, from: .kind("map"), in: trace.graph)
    trace.finish()
  }
}
