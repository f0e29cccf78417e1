// The pipelines of the differential tests: test sources, shared sequences, operator trees and
// the consumers that subscribe to them.

import StreamsTest

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
