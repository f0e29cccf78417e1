import Streams
import Testing

/// Records what it sees for the nodes it was told to trace; ignores every other node, so tests
/// running at the same time are not affected.
private final class RecordingTracer: StreamsTracer, @unchecked Sendable {
  // Guarded by `lock`.
  private var traced: Set<UInt64> = []
  private var seenNodes: [TraceNode] = []
  private var log: [String] = []
  private let lock = TestLock()

  func trace(_ ids: [UInt64]) { lock.run { traced.formUnion(ids) } }
  var nodes: [TraceNode] { lock.run { seenNodes } }
  var lines: [String] { lock.run { log } }

  func subscription(to node: TraceNode) -> (any TraceSubscription)? {
    let isTraced = lock.run { () -> Bool in
      guard traced.contains(node.id) else { return false }
      seenNodes.append(node)
      log.append("subscribe \(node.kind)")
      return true
    }
    return isTraced ? Recorder(kind: node.kind, tracer: self) : nil
  }

  func record(_ line: String) { lock.run { log.append(line) } }

  final class Recorder: TraceSubscription {
    let kind: String
    let tracer: RecordingTracer
    init(kind: String, tracer: RecordingTracer) {
      self.kind = kind
      self.tracer = tracer
    }
    func deliver(_ event: TraceEventKind, value: () -> TraceValue?, _ body: () -> Void) {
      let element = value().map { "(\($0))" } ?? ""
      tracer.record("\(kind) \(event)\(element)")
      body()
    }
    func disposed() { tracer.record("dispose \(kind)") }
  }
}

@Suite("Tracing hook", .serialized)
struct TracingTests {
  @Test("a traced inner just of flatMap and flatMapLatest is subscribed, so the tracer sees it")
  func tracedInnerJust() {
    let tracer = RecordingTracer()
    let subject = PublishSubject<Int>()
    let inner = Observable.just(7)
    tracer.trace([inner.traceNode.id])
    Tracing.withTracer(tracer) {

      var received: [Int] = []
      let merged = subject.flatMap { _ in inner }.subscribe(onNext: { received.append($0) })
      let switched = subject.flatMapLatest { _ in inner }.subscribe(onNext: { received.append($0) })
      subject.onNext(1)
      merged.dispose()
      switched.dispose()

      #expect(received == [7, 7])
      #expect(
        tracer.lines == [
          "subscribe just", "just next(7)", "just completed", "dispose just",
          "subscribe just", "just next(7)", "just completed", "dispose just",
        ])
    }
  }

  @Test("a tracer sees subscribe, events and dispose with kinds, ids, upstreams and call sites")
  func recordsGraph() {
    let tracer = RecordingTracer()
    let subject = PublishSubject<Int>()
    let mapped = subject.map { $0 * 2 }
    let filtered = mapped.filter { $0 > 2 }
    tracer.trace([subject.traceNode.id, mapped.traceNode.id, filtered.traceNode.id])
    Tracing.withTracer(tracer) {

      let subscription = filtered.subscribe(onNext: { _ in })
      subject.onNext(1)
      subject.onNext(2)
      subscription.dispose()

      #expect(
        tracer.lines == [
          "subscribe filter", "subscribe map", "subscribe PublishSubject",
          "PublishSubject next(1)", "map next(2)",
          "PublishSubject next(2)", "map next(4)", "filter next(4)",
          "dispose filter", "dispose map", "dispose PublishSubject",
        ])
      let nodes = tracer.nodes
      #expect(nodes.map(\.kind) == ["filter", "map", "PublishSubject"])
      #expect(nodes[0].upstreams == [mapped.traceNode.id])
      #expect(nodes[1].upstreams == [subject.traceNode.id])
      #expect(nodes[2].upstreams == [])
      #expect(nodes.allSatisfy { $0.file == "StreamsTests/TracingTests.swift" })
      #expect(nodes[1].line != nodes[0].line)
    }
  }

  @Test("a subscription made before the tracer is installed is never reported")
  func decidedAtSubscribeTime() {
    let tracer = RecordingTracer()
    let subject = PublishSubject<Int>()
    let mapped = subject.map { $0 + 1 }
    tracer.trace([subject.traceNode.id, mapped.traceNode.id])
    var received: [Int] = []
    let early = mapped.subscribe(onNext: { received.append($0) })
    Tracing.withTracer(tracer) {
      subject.onNext(1)
      early.dispose()
      #expect(received == [2])
      #expect(tracer.lines.isEmpty)
    }
  }

  @Test("with no tracer installed or bound, Tracing.current is nil and nothing is traced")
  func noTracer() async {
    // Installs and removes the process-wide tracer: in a child process of its own.
    await #expect(processExitsWith: .success) {
      let tracer = RecordingTracer()
      let subject = PublishSubject<Int>()
      tracer.trace([subject.traceNode.id])
      Tracing.install(tracer)
      Tracing.install(nil)
      precondition(Tracing.current == nil, "a removed tracer is still current")
      _ = subject.subscribe(onNext: { _ in })
      subject.onNext(1)
      precondition(tracer.lines.isEmpty, "\(tracer.lines)")
    }
  }

  @Test("every observable gets a distinct id")
  func distinctIDs() {
    let a = PublishSubject<Int>()
    let b = a.map { $0 }
    let c = a.map { $0 }
    #expect(Set([a.traceNode.id, b.traceNode.id, c.traceNode.id]).count == 3)
  }
}

extension TracingTests {
  @Test("with a tracer installed, a subscription that completes reports the disposal of each node")
  func completedChainReportsDisposal() {
    let tracer = RecordingTracer()
    let source = Observable.just(1)
    let mapped = source.map { $0 + 1 }
    tracer.trace([source.traceNode.id, mapped.traceNode.id])
    Tracing.withTracer(tracer) {
      var received: [Int] = []
      let subscription = mapped.subscribe(onNext: { received.append($0) })
      #expect(received == [2])
      #expect(tracer.lines.contains("dispose map"))
      #expect(tracer.lines.contains("dispose just"))
      subscription.dispose()
    }
  }
}

@Suite("TraceValue")
struct TraceValueTests {
  enum Mode: CustomStringConvertible {
    case idle
    case busy(Int)
    var description: String {
      switch self {
      case .idle: "idle"
      case .busy(let count): "busy \(count)"
      }
    }
  }

  struct Point { var x: Int32, y: Int32 }

  final class Box: CustomStringConvertible {
    var name = "first"
    var description: String { "Box(\(name))" }
  }

  @Test("plain values up to 16 bytes are kept as bytes and described when asked")
  func plainValues() {
    #expect(TraceValue(42).description == "42")
    #expect(TraceValue(-1.5).description == "-1.5")
    #expect(TraceValue(true).description == "true")
    #expect(TraceValue(Mode.busy(3)).description == "busy 3")
    #expect(TraceValue(Mode.idle).description == "idle")
    #expect(TraceValue(Int?.none).description == "nil")
    #expect(TraceValue(Int?.some(7)).description == "Optional(7)")
    #expect(TraceValue(Point(x: 1, y: -2)).description == "Point(x: 1, y: -2)")
    #expect(TraceValue((UInt64.max, UInt64(1))).description == "(18446744073709551615, 1)")
  }

  @Test("strings are kept; objects, collections and larger values are described when kept")
  func describedNow() {
    #expect(TraceValue("hi").description == "hi")
    #expect(TraceValue("hi".dropFirst()).description == "i")
    #expect(TraceValue([1, 2]).description == "[1, 2]")
    #expect(TraceValue((1, 2, 3)).description == "(1, 2, 3)")
    let box = Box()
    let kept = TraceValue(box)
    box.name = "changed"
    // Described when kept: a later change of the object does not show, and it is not retained.
    #expect(kept.description == "Box(first)")
    #expect(TraceValue(description: "error!").description == "error!")
  }
}
