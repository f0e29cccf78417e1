import Streams

/// Records from its creation until ``finish()``: an XCTest test's lifetime, or any stretch of a
/// run.
///
/// Creating a session installs a new ``TraceRecorder`` as the process-wide tracer; ``finish()``
/// (or the session's deinit, whichever comes first) uninstalls it if it is still the installed
/// one. Keep a session in a stored property of a test case: XCTest makes a test case object per
/// test and runs one test at a time, so each test records its own trace.
///
/// ```swift
/// final class SearchTraceTests: XCTestCase {
///   private var trace: TraceSession?
///
///   override func setUp() { trace = TraceSession() }
///   override func tearDown() { trace?.finish() }
///
///   func testTypingReachesTheResults() throws {
///     let search = SearchViewModel()
///     search.query.accept("swift")
///     XCTAssertEdge(
///       from: "SearchViewModel", to: "ResultsViewModel", kind: .chain, in: try XCTUnwrap(trace).graph)
///   }
/// }
/// ```
///
/// The tracer is process-wide: a session records whatever any thread subscribes while it is
/// installed, and a second session (or `Tracing.install`) replaces it. Swift Testing runs tests in
/// parallel: there, record with ``TraceRecorder/record(configuration:_:)`` or
/// `Tracing.withTracer`, which bind the recorder to the test's own work.
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
