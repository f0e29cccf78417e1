import Streams

/// Records from its creation until ``finish()``: a test's lifetime, or any stretch of a run.
///
/// Creating a session installs a new ``TraceRecorder`` as the process-wide tracer; ``finish()``
/// (or the session's deinit, whichever comes first) uninstalls it if it is still the installed
/// one. Keep a session in a stored property of a test suite: Swift Testing makes a suite value
/// per test (XCTest a test case object per test), so each test records its own trace.
///
/// ```swift
/// @Suite(.serialized)
/// struct SearchTraceTests {
///   let trace = TraceSession()
///
///   @Test func typingReachesTheResults() {
///     let search = SearchViewModel()
///     search.query.accept("swift")
///     expectEdge(from: "SearchViewModel", to: "ResultsViewModel", kind: .chain, in: trace.graph)
///     trace.finish()
///   }
/// }
/// ```
///
/// The tracer is process-wide: a session records whatever any thread subscribes while it is
/// installed, and a second session (or `TraceRecorder.record`, or `Tracing.install`) replaces it.
/// Tests that record must therefore not run in parallel with each other, nor with tests that
/// subscribe to observables they do not want in the trace: mark their suites `.serialized` and
/// run the test command with `--no-parallel`, or keep them in a target of their own.
///
/// Subscriptions made while the session was installed stay traced after it finishes, until they
/// are disposed: ``graph`` read later may have grown. ``finish()`` returns the graph as it was
/// then.
public final class TraceSession: Sendable {
  /// The recorder this session installed.
  public let recorder: TraceRecorder
  private let finished = Locked<TraceGraph?>(nil)

  /// Installs a new recorder keeping what `configuration` says, replacing any tracer installed.
  public init(configuration: TraceConfiguration = TraceConfiguration()) {
    recorder = TraceRecorder(configuration: configuration)
    Tracing.install(recorder)
  }

  deinit {
    uninstall()
  }

  /// What was recorded so far.
  public var graph: TraceGraph { recorder.graph }

  /// Whether ``finish()`` was called.
  public var isFinished: Bool { finished.withLock { $0 != nil } }

  /// Uninstalls the recorder if it is still the installed tracer, and returns what it recorded.
  ///
  /// Calling it again returns the same graph and does nothing else.
  @discardableResult
  public func finish() -> TraceGraph {
    if let graph = finished.withLock({ $0 }) { return graph }
    uninstall()
    let graph = recorder.graph
    return finished.withLock { state in
      if let earlier = state { return earlier }
      state = graph
      return graph
    }
  }

  /// Removes the recorder unless another tracer replaced it since.
  private func uninstall() {
    if let current = Tracing.current, current === recorder {
      Tracing.install(nil)
    }
  }
}
