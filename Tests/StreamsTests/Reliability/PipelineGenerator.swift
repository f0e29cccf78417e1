// Random pipelines for the differential tests: test sources with random schedules and a chain of
// operators, drawn from a seed, printable, and shrinkable.

import StreamsTest

/// SplitMix64: a small, fast, well-mixed PRNG whose whole state is one word, so a case is
/// reproduced from its seed.
struct SplitMix64 {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A uniform integer in `range`.
  mutating func int(_ range: ClosedRange<Int>) -> Int {
    range.lowerBound + Int(next() % UInt64(range.count))
  }

  /// `true` with probability `percent` / 100.
  mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }
}

/// A test source: hot (absolute ticks) or cold (ticks after each subscription).
struct SourceSpec: Equatable, CustomStringConvertible {
  var isHot: Bool
  var events: [Recorded<ModelEvent>]

  var description: String {
    (isHot ? "hot" : "cold") + "[" + events.map { "\($0.time):\($0.value)" }.joined(separator: " ")
      + "]"
  }
}

/// A pipeline node.
indirect enum Node: Equatable, CustomStringConvertible {
  case source(Int)
  case unary(UnaryOp, Node)

  var description: String {
    switch self {
    case .source(let index): return "s\(index)"
    case .unary(let op, let upstream): return "\(upstream).\(op)"
    }
  }

  /// How many operators the pipeline has.
  var operatorCount: Int {
    switch self {
    case .source: return 0
    case .unary(let op, let upstream): return 1 + upstream.operatorCount + op.operatorCount
    }
  }
}

/// A single-source operator (some take a second sequence to switch to).
enum UnaryOp: Equatable, CustomStringConvertible {
  case mapAdd(Int)
  case mapMod(Int)
  case filterEven
  case compactMap
  case scan(Int)
  case reduce(Int)
  case distinctUntilChanged
  case take(Int)
  case takeLast(Int)
  case skip(Int)
  case takeWhile(Int)
  case skipWhile(Int)
  case startWith([Int])
  case elementAt(Int)
  case ifEmptyDefault(Int)
  case ifEmptySwitch(Node)
  case enumerated
  case toArray
  case materialize
  case catchAndReturn(Int)
  case catchSwitch(Node)
  case retry(Int)
  case debounce(Int)
  case throttle(Int, latest: Bool)
  case delay(Int)
  case delaySubscription(Int)
  case timeout(Int)
  case timeoutSwitch(Int, Node)

  var description: String {
    switch self {
    case .mapAdd(let k): return "map { $0 + \(k) }"
    case .mapMod(let k): return "map { $0 % \(k) }"
    case .filterEven: return "filter { $0 % 2 == 0 }"
    case .compactMap: return "compactMap { $0 % 3 == 0 ? nil : $0 * 2 }"
    case .scan(let seed): return "scan(\(seed), accumulator: +)"
    case .reduce(let seed): return "reduce(\(seed), accumulator: +)"
    case .distinctUntilChanged: return "distinctUntilChanged()"
    case .take(let n): return "take(\(n))"
    case .takeLast(let n): return "takeLast(\(n))"
    case .skip(let n): return "skip(\(n))"
    case .takeWhile(let k): return "take(while: { $0 < \(k) })"
    case .skipWhile(let k): return "skip(while: { $0 < \(k) })"
    case .startWith(let values):
      return "startWith(\(values.map(String.init).joined(separator: ", ")))"
    case .elementAt(let i): return "element(at: \(i))"
    case .ifEmptyDefault(let v): return "ifEmpty(default: \(v))"
    case .ifEmptySwitch(let other): return "ifEmpty(switchTo: \(other))"
    case .enumerated: return "enumerated().map { $0.index * 1000 + $0.element }"
    case .toArray: return "toArray().map(hash)"
    case .materialize: return "materialize().map(code)"
    case .catchAndReturn(let v): return "catchAndReturn(\(v))"
    case .catchSwitch(let other): return "catch { _ in \(other) }"
    case .retry(let n): return "retry(\(n))"
    case .debounce(let d): return "debounce(\(d))"
    case .throttle(let d, let latest): return "throttle(\(d), latest: \(latest))"
    case .delay(let d): return "delay(\(d))"
    case .delaySubscription(let d): return "delaySubscription(\(d))"
    case .timeout(let d): return "timeout(\(d))"
    case .timeoutSwitch(let d, let other): return "timeout(\(d), other: \(other))"
    }
  }

  /// The second sequence, if the operator has one.
  var other: Node? {
    switch self {
    case .ifEmptySwitch(let node), .catchSwitch(let node), .timeoutSwitch(_, let node): return node
    default: return nil
    }
  }

  /// The same operator with `other` replaced.
  func with(other node: Node) -> UnaryOp {
    switch self {
    case .ifEmptySwitch: return .ifEmptySwitch(node)
    case .catchSwitch: return .catchSwitch(node)
    case .timeoutSwitch(let d, _): return .timeoutSwitch(d, node)
    default: return self
    }
  }

  var operatorCount: Int { other?.operatorCount ?? 0 }
}

/// Encodings of non-`Int` results as `Int`, shared by the model and the Streams pipeline.
enum Encode {
  static func enumerated(_ index: Int, _ element: Int) -> Int { index * 1000 + element }
  static func array(_ values: [Int]) -> Int {
    values.reduce(values.count) { ($0 &* 31 &+ $1) % 1_000_003 }
  }
  static func materialized(_ event: ModelEvent) -> Int {
    switch event {
    case .next(let value): return value
    case .completed: return 10_000
    case .error(let code): return 20_000 + code
    }
  }
}

/// A whole test case: sources, the operator tree, and when it is subscribed and disposed.
struct Pipeline: Equatable, CustomStringConvertible {
  var sources: [SourceSpec]
  var root: Node
  var subscribed = 200
  var disposed = 1000

  var description: String {
    var lines = sources.enumerated().map { "  s\($0.offset) = \($0.element)" }
    lines.append("  \(root)   (subscribed \(subscribed), disposed \(disposed))")
    return lines.joined(separator: "\n")
  }
}

/// Draws pipelines from a seed.
struct PipelineGenerator {
  private var rng: SplitMix64
  private var sources: [SourceSpec] = []

  /// The pipeline of `seed`.
  static func pipeline(seed: UInt64) -> Pipeline {
    var generator = PipelineGenerator(rng: SplitMix64(seed: seed))
    return generator.make()
  }

  private mutating func make() -> Pipeline {
    var node = Node.source(makeSource())
    for _ in 0..<rng.int(1...5) { node = .unary(makeOp(), node) }
    let disposed = rng.chance(50) ? 1000 : rng.int(201...1100)
    return Pipeline(sources: sources, root: node, disposed: disposed)
  }

  private mutating func makeSource() -> Int {
    let isHot = rng.chance(50)
    var events: [Recorded<ModelEvent>] = []
    var time = isHot ? rng.int(150...260) : rng.int(1...40)
    for _ in 0..<rng.int(0...6) {
      if time == 200, isHot { time += 1 }
      events.append(Recorded(time: time, value: .next(rng.int(0...19))))
      // Sometimes two events share a tick.
      time += rng.chance(8) ? 0 : rng.int(1...90)
    }
    if time == 200, isHot { time += 1 }
    switch rng.int(0...99) {
    case 0..<45: events.append(Recorded(time: time, value: .completed))
    case 45..<70: events.append(Recorded(time: time, value: .error(rng.int(1...3))))
    default: break
    }
    sources.append(SourceSpec(isHot: isHot, events: events))
    return sources.count - 1
  }

  /// A second sequence for the switching operators: a fresh source, sometimes with an operator.
  private mutating func makeOther() -> Node {
    let node = Node.source(makeSource())
    return rng.chance(25) ? .unary(.mapAdd(rng.int(100...200)), node) : node
  }

  private mutating func makeOp() -> UnaryOp {
    switch rng.int(0...27) {
    case 0: return .mapAdd(rng.int(1...30))
    case 1: return .mapMod(rng.int(2...4))
    case 2: return .filterEven
    case 3: return .compactMap
    case 4: return .scan(rng.int(0...5))
    case 5: return .reduce(rng.int(0...5))
    case 6: return .distinctUntilChanged
    case 7: return .take(rng.int(0...4))
    case 8: return .takeLast(rng.int(0...3))
    case 9: return .skip(rng.int(0...3))
    case 10: return .takeWhile(rng.int(0...20))
    case 11: return .skipWhile(rng.int(0...20))
    case 12: return .startWith((0..<rng.int(1...2)).map { _ in rng.int(0...19) })
    case 13: return .elementAt(rng.int(0...3))
    case 14: return .ifEmptyDefault(rng.int(50...59))
    case 15: return .ifEmptySwitch(makeOther())
    case 16: return .enumerated
    case 17: return .toArray
    case 18: return .materialize
    case 19: return .catchAndReturn(rng.int(60...69))
    case 20: return .catchSwitch(makeOther())
    case 21: return .retry(rng.int(1...3))
    case 22: return .debounce(rng.int(1...60))
    case 23: return .throttle(rng.int(1...60), latest: rng.chance(50))
    case 24: return .delay(rng.int(1...60))
    case 25: return .delaySubscription(rng.int(1...60))
    case 26: return .timeout(rng.int(1...80))
    default: return .timeoutSwitch(rng.int(1...80), makeOther())
    }
  }
}

/// Smaller pipelines than `pipeline`, for shrinking a failure: one operator dropped, one source
/// event dropped, the disposal moved to the default.
func shrinkCandidates(_ pipeline: Pipeline) -> [Pipeline] {
  var out: [Pipeline] = []
  for node in nodeVariants(pipeline.root) {
    var candidate = pipeline
    candidate.root = node
    out.append(candidate)
  }
  for (index, source) in pipeline.sources.enumerated() {
    for eventIndex in source.events.indices {
      var candidate = pipeline
      candidate.sources[index].events.remove(at: eventIndex)
      out.append(candidate)
    }
  }
  if pipeline.disposed != 1000 {
    var candidate = pipeline
    candidate.disposed = 1000
    out.append(candidate)
  }
  return out
}

private func nodeVariants(_ node: Node) -> [Node] {
  switch node {
  case .source: return []
  case .unary(let op, let upstream):
    var out = [upstream]
    out += nodeVariants(upstream).map { .unary(op, $0) }
    if let other = op.other {
      out += nodeVariants(other).map { .unary(op.with(other: $0), upstream) }
    }
    return out
  }
}
