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
