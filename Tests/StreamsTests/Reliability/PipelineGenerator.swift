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

/// A pipeline node: a tree whose leaves are test sources or shared sequences.
indirect enum Node: Equatable, CustomStringConvertible {
  case source(Int)
  /// A subscriber of shared sequence `index` (`Pipeline.shared`).
  case shared(Int)
  case unary(UnaryOp, Node)
  /// An operator over 2–3 sequences (for `take(until:)`, `skip(until:)`, `sample` and
  /// `withLatestFrom`, the first is the source and the second the other sequence).
  case multi(MultiOp, [Node])
  /// A higher-order operator: element `v` of `outer` maps to `inners[v % inners.count]`.
  case higher(HigherOp, Node, inners: [Node])

  var description: String {
    switch self {
    case .source(let index): return "s\(index)"
    case .shared(let index): return "shared\(index)"
    case .unary(let op, let upstream): return "\(upstream).\(op)"
    case .multi(let op, let children): return op.describe(children.map(\.description))
    case .higher(let op, let outer, let inners):
      let pick = inners.count == 1 ? "\(inners[0])" : "[\(list(inners))][$0 % \(inners.count)]"
      switch op {
      case .switchLatest: return "\(outer).map { \(pick) }.switchLatest()"
      default: return "\(outer).\(op) { \(pick) }"
      }
    }
  }

  /// How many operators the pipeline has.
  var operatorCount: Int {
    switch self {
    case .source, .shared: return 0
    case .unary(let op, let upstream): return 1 + upstream.operatorCount + op.operatorCount
    case .multi(_, let children): return children.reduce(1) { $0 + $1.operatorCount }
    case .higher(_, let outer, let inners):
      return inners.reduce(1 + outer.operatorCount) { $0 + $1.operatorCount }
    }
  }
}

private func list(_ nodes: [Node]) -> String {
  nodes.map(\.description).joined(separator: ", ")
}

/// An operator over several sequences.
enum MultiOp: Equatable {
  case merge
  case concat
  /// `collection`: the array form (`zip([a, b])`) instead of the typed one (`zip(a, b)`).
  case zip(collection: Bool)
  case combineLatest(collection: Bool)
  case amb
  case takeUntil
  case skipUntil
  case sample
  case withLatestFrom

  func describe(_ children: [String]) -> String {
    let all = children.joined(separator: ", ")
    switch self {
    case .merge: return "Observable.merge(\(all))"
    case .concat: return "Observable.concat(\(all))"
    case .zip(let collection):
      return collection ? "Observable.zip([\(all)]).map(hash)" : "Observable.zip(\(all), hash)"
    case .combineLatest(let collection):
      return collection
        ? "Observable.combineLatest([\(all)]).map(hash)" : "Observable.combineLatest(\(all), hash)"
    case .amb:
      return children.count == 2 ? "\(children[0]).amb(\(children[1]))" : "Observable.amb([\(all)])"
    case .takeUntil: return "\(children[0]).take(until: \(children[1]))"
    case .skipUntil: return "\(children[0]).skip(until: \(children[1]))"
    case .sample: return "\(children[0]).sample(\(children[1]))"
    case .withLatestFrom: return "\(children[0]).withLatestFrom(\(children[1]), hash)"
    }
  }

  /// Whether the operator takes any number of sequences (else exactly two).
  var isVariadic: Bool {
    switch self {
    case .merge, .concat, .zip, .combineLatest, .amb: return true
    default: return false
    }
  }
}

/// A higher-order operator.
enum HigherOp: Equatable, CustomStringConvertible {
  case flatMap
  case flatMapLatest
  case flatMapFirst
  case concatMap
  /// `map` to the inner sequence, then `switchLatest()`.
  case switchLatest

  var description: String {
    switch self {
    case .flatMap: return "flatMap"
    case .flatMapLatest: return "flatMapLatest"
    case .flatMapFirst: return "flatMapFirst"
    case .concatMap: return "concatMap"
    case .switchLatest: return "switchLatest"
    }
  }
}

/// How a shared sequence shares its source.
enum ShareKind: Equatable, CustomStringConvertible {
  /// `share(replay:scope:)`; `forever` is `.forever`, else `.whileConnected`.
  case share(replay: Int, forever: Bool)
  /// `publish().refCount()`.
  case publishRefCount

  var description: String {
    switch self {
    case .share(let replay, let forever):
      return "share(replay: \(replay), scope: \(forever ? ".forever" : ".whileConnected"))"
    case .publishRefCount: return "publish().refCount()"
    }
  }

  /// Whether the subject outlives its connections (and a terminal event): RxSwift's
  /// `.forever` is `multicast(subject).refCount()` with one subject; `publish()` makes a subject
  /// per connection (`multicast { PublishSubject() }`), as `.whileConnected` does.
  var isForever: Bool {
    if case .share(_, true) = self { return true }
    return false
  }

  var replay: Int {
    if case .share(let replay, _) = self { return replay }
    return 0
  }
}

/// A shared sequence: one Observable, built once, that every consumer referring to it subscribes.
struct SharedSpec: Equatable, CustomStringConvertible {
  var kind: ShareKind
  var upstream: Node

  var description: String { "\(upstream).\(kind)" }
}

/// An observer of the pipeline: its tree, and when it subscribes and disposes.
struct Consumer: Equatable {
  var root: Node
  var subscribed = 200
  var disposed = 1000
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
  /// `buffer(timeSpan:count:scheduler:)`.
  case buffer(Int, count: Int)

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
    case .buffer(let span, let count): return "buffer(timeSpan: \(span), count: \(count)).map(hash)"
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
  /// Also the result selector of `zip`, `combineLatest` and `withLatestFrom`.
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

/// A whole test case: sources, shared sequences, and the consumers that subscribe to trees over
/// them at their times.
struct Pipeline: Equatable, CustomStringConvertible {
  var sources: [SourceSpec]
  var shared: [SharedSpec] = []
  var consumers: [Consumer]

  init(sources: [SourceSpec], shared: [SharedSpec] = [], consumers: [Consumer]) {
    self.sources = sources
    self.shared = shared
    self.consumers = consumers
  }

  /// One consumer.
  init(sources: [SourceSpec], root: Node, subscribed: Int = 200, disposed: Int = 1000) {
    self.init(
      sources: sources,
      consumers: [Consumer(root: root, subscribed: subscribed, disposed: disposed)])
  }

  var operatorCount: Int {
    consumers.reduce(shared.reduce(0) { $0 + 1 + $1.upstream.operatorCount }) {
      $0 + $1.root.operatorCount
    }
  }

  var description: String {
    var lines = sources.enumerated().map { "  s\($0.offset) = \($0.element)" }
    lines += shared.enumerated().map { "  shared\($0.offset) = \($0.element)" }
    lines += consumers.enumerated().map {
      "  c\($0.offset): \($0.element.root)   (subscribed \($0.element.subscribed), disposed "
        + "\($0.element.disposed))"
    }
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
    if rng.chance(20) { return makeShared() }
    var budget = rng.int(1...5)
    let root = makeChain(.source(makeSource()), budget: &budget)
    let disposed = rng.chance(50) ? 1000 : rng.int(201...1100)
    return Pipeline(sources: sources, root: root, disposed: disposed)
  }

  /// One shared sequence and 2–3 consumers subscribing and disposing at different times.
  private mutating func makeShared() -> Pipeline {
    var upstreamBudget = rng.int(0...2)
    let upstream = makeChain(.source(makeSource()), budget: &upstreamBudget, unaryOnly: true)
    let kind: ShareKind =
      switch rng.int(0...4) {
      case 0: .share(replay: 0, forever: false)
      case 1: .share(replay: 1, forever: false)
      case 2: .share(replay: 0, forever: true)
      case 3: .share(replay: 1, forever: true)
      default: .publishRefCount
      }
    var consumers: [Consumer] = []
    var time = 200
    for _ in 0..<rng.int(2...3) {
      var budget = rng.int(0...2)
      let root = makeChain(.shared(0), budget: &budget)
      let disposed = rng.chance(40) ? 1000 : time + rng.int(1...400)
      consumers.append(Consumer(root: root, subscribed: time, disposed: disposed))
      // Consumers subscribe at multiples of ten; sources send at other ticks (`residue`).
      time += rng.int(1...15) * 10
    }
    return Pipeline(
      sources: sources, shared: [SharedSpec(kind: kind, upstream: upstream)], consumers: consumers)
  }

  /// `node` followed by operators while `budget` lasts (multi-source operators take fresh
  /// sequences as their other inputs, higher-order ones fresh inner sequences).
  private mutating func makeChain(_ start: Node, budget: inout Int, unaryOnly: Bool = false)
    -> Node
  {
    var node = start
    while budget > 0 {
      budget -= 1
      let kind = unaryOnly ? 0 : rng.int(0...99)
      if kind < 55 {
        node = .unary(makeOp(), node)
      } else if kind < 80 {
        node = makeMulti(node, budget: &budget)
      } else {
        node = makeHigher(node, budget: &budget)
      }
    }
    return node
  }

  /// Another input of a multi-source operator: a fresh source, sometimes with an operator.
  private mutating func makeSide(budget: inout Int) -> Node {
    let node = Node.source(makeSource())
    guard budget > 0, rng.chance(30) else { return node }
    budget -= 1
    return .unary(makeOp(), node)
  }

  private mutating func makeMulti(_ node: Node, budget: inout Int) -> Node {
    let ops: [MultiOp] = [
      .merge, .concat, .zip(collection: rng.chance(50)), .combineLatest(collection: rng.chance(50)),
      .amb, .takeUntil, .skipUntil, .sample, .withLatestFrom,
    ]
    let op = ops[rng.int(0...ops.count - 1)]
    if !op.isVariadic { return .multi(op, [node, makeSide(budget: &budget)]) }
    var children = [node]
    for _ in 0..<rng.int(1...2) { children.append(makeSide(budget: &budget)) }
    let position = rng.int(0...children.count - 1)
    children.swapAt(0, position)
    return .multi(op, children)
  }

  private mutating func makeHigher(_ node: Node, budget: inout Int) -> Node {
    let ops: [HigherOp] = [.flatMap, .flatMapLatest, .flatMapFirst, .concatMap, .switchLatest]
    let op = ops[rng.int(0...ops.count - 1)]
    var inners: [Node] = []
    for _ in 0..<rng.int(1...2) {
      var inner = Node.source(makeInnerSource())
      if budget > 0, rng.chance(25) {
        budget -= 1
        inner = .unary(makeOp(), inner)
      }
      inners.append(inner)
    }
    return .higher(op, node, inners: inners)
  }

  /// The tick (modulo 10) at which source `index` sends, hot or cold (a cold source subscribed
  /// at a multiple of ten, as consumers are): independent sources seldom share a tick, whose
  /// order the model cannot tell, so few cases are skipped. Never 0, the consumers' residue.
  private func residue(_ index: Int) -> Int { 1 + index % 9 }

  private func snap(_ time: Int, _ index: Int) -> Int { time - time % 10 + residue(index) }

  private mutating func makeSource() -> Int {
    let isHot = rng.chance(50)
    let index = sources.count
    var events: [Recorded<ModelEvent>] = []
    var time = snap(isHot ? rng.int(150...260) : rng.int(1...40), index)
    for _ in 0..<rng.int(0...6) {
      events.append(Recorded(time: time, value: .next(rng.int(0...19))))
      // Sometimes two events share a tick.
      time += rng.chance(8) ? 0 : rng.int(1...9) * 10
    }
    switch rng.int(0...99) {
    case 0..<45: events.append(Recorded(time: time, value: .completed))
    case 45..<70: events.append(Recorded(time: time, value: .error(rng.int(1...3))))
    default: break
    }
    sources.append(SourceSpec(isHot: isHot, events: events))
    return sources.count - 1
  }

  /// An inner sequence of a higher-order operator: mostly cold and short.
  private mutating func makeInnerSource() -> Int {
    if rng.chance(20) { return makeSource() }
    // Subscribed at the outer sequence's ticks (all with one residue modulo 10), so two
    // subscriptions of one inner source start a multiple of ten apart: gaps of 3 modulo 10 keep
    // their events off each other's ticks (any sum of up to 3 gaps is 3, 6 or 9 modulo 10), and
    // a first tick of 2, 3, 5, 6, 8 or 9 modulo 10 keeps them off the outer sequence's ticks.
    let residues = [2, 3, 5, 6, 8, 9]
    var events: [Recorded<ModelEvent>] = []
    var time = rng.int(0...2) * 10 + residues[sources.count % residues.count]
    for _ in 0..<rng.int(0...3) {
      events.append(Recorded(time: time, value: .next(rng.int(0...19))))
      time += rng.int(0...3) * 10 + 3
    }
    switch rng.int(0...99) {
    case 0..<65: events.append(Recorded(time: time, value: .completed))
    case 65..<80: events.append(Recorded(time: time, value: .error(rng.int(1...3))))
    default: break
    }
    sources.append(SourceSpec(isHot: false, events: events))
    return sources.count - 1
  }

  /// A second sequence for the switching operators: a fresh source, sometimes with an operator.
  private mutating func makeOther() -> Node {
    let node = Node.source(makeSource())
    return rng.chance(25) ? .unary(.mapAdd(rng.int(100...200)), node) : node
  }

  private mutating func makeOp() -> UnaryOp {
    switch rng.int(0...28) {
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
    case 27: return .buffer(rng.int(20...120), count: rng.int(1...4))
    default: return .timeoutSwitch(rng.int(1...80), makeOther())
    }
  }
}

/// Smaller pipelines than `pipeline`, for shrinking a failure: a subtree replaced by one of its
/// children, an operator dropped, an input of a multi-source operator dropped, a consumer or a
/// shared sequence removed, a source event dropped, the disposal moved to the default.
func shrinkCandidates(_ pipeline: Pipeline) -> [Pipeline] {
  var out: [Pipeline] = []
  if pipeline.consumers.count > 1 {
    for index in pipeline.consumers.indices {
      var candidate = pipeline
      candidate.consumers.remove(at: index)
      out.append(candidate)
    }
  }
  for (index, consumer) in pipeline.consumers.enumerated() {
    for node in nodeVariants(consumer.root) {
      var candidate = pipeline
      candidate.consumers[index].root = node
      out.append(candidate)
    }
    if let unshared = unshare(consumer.root, pipeline.shared), pipeline.consumers.count == 1 {
      var candidate = pipeline
      candidate.consumers[index].root = unshared
      candidate.shared = []
      out.append(candidate)
    }
  }
  for (index, spec) in pipeline.shared.enumerated() {
    for node in nodeVariants(spec.upstream) {
      var candidate = pipeline
      candidate.shared[index].upstream = node
      out.append(candidate)
    }
  }
  for (index, source) in pipeline.sources.enumerated() {
    for eventIndex in source.events.indices {
      var candidate = pipeline
      candidate.sources[index].events.remove(at: eventIndex)
      out.append(candidate)
    }
  }
  for (index, consumer) in pipeline.consumers.enumerated() where consumer.disposed != 1000 {
    var candidate = pipeline
    candidate.consumers[index].disposed = 1000
    out.append(candidate)
  }
  return out
}

/// `node` with its shared sequences replaced by their definitions (no sharing left).
private func unshare(_ node: Node, _ shared: [SharedSpec]) -> Node? {
  guard !shared.isEmpty else { return nil }
  switch node {
  case .source: return node
  case .shared(let index): return shared[index].upstream
  case .unary(let op, let upstream): return unshare(upstream, shared).map { .unary(op, $0) }
  case .multi(let op, let children):
    return .multi(op, children.map { unshare($0, shared) ?? $0 })
  case .higher(let op, let outer, let inners):
    return unshare(outer, shared).map { .higher(op, $0, inners: inners) }
  }
}

private func nodeVariants(_ node: Node) -> [Node] {
  switch node {
  case .source, .shared: return []
  case .unary(let op, let upstream):
    var out = [upstream]
    out += nodeVariants(upstream).map { .unary(op, $0) }
    if let other = op.other {
      out += nodeVariants(other).map { .unary(op.with(other: $0), upstream) }
    }
    return out
  case .multi(let op, let children):
    var out = children
    if op.isVariadic, children.count > 2 {
      for index in children.indices {
        var fewer = children
        fewer.remove(at: index)
        out.append(.multi(op, fewer))
      }
    }
    for index in children.indices {
      for variant in nodeVariants(children[index]) {
        var changed = children
        changed[index] = variant
        out.append(.multi(op, changed))
      }
    }
    return out
  case .higher(let op, let outer, let inners):
    var out = [outer] + inners
    if inners.count > 1 {
      for index in inners.indices {
        var fewer = inners
        fewer.remove(at: index)
        out.append(.higher(op, outer, inners: fewer))
      }
    }
    out += nodeVariants(outer).map { .higher(op, $0, inners: inners) }
    for index in inners.indices {
      for variant in nodeVariants(inners[index]) {
        var changed = inners
        changed[index] = variant
        out.append(.higher(op, outer, inners: changed))
      }
    }
    return out
  }
}
