import Dispatch
import Streams
import Testing

@testable import StreamsTrace
@testable import StreamsTraceRecording

/// A plain value of two words whose halves must agree: a torn write would break the agreement.
private struct Pair: CustomStringConvertible {
  let writer: Int
  let check: Int
  var description: String { "\(writer):\(check)" }
}

/// Keeps `value` (plain) in `ring` with the order key `time` (an operator's values are keyed by
/// the time their outermost delivery began).
private func keep(_ value: Int, in ring: SeqlockRing, time: UInt64) {
  guard let plain = TraceValue(value).plain else {
    Issue.record("an Int is a plain value")
    return
  }
  ring.keep(type: plain.type, plain.words.0, plain.words.1, key: time)
}

@Suite("Node values: the rings of recent values")
struct NodeValuesTests {
  @Test("a subject's plain values are kept by the sending thread, the newest `limit` oldest first")
  func newestPlainValues() {
    let values = NodeValues(limit: 5)
    for value in 0..<20 { #expect(values.write(TraceValue(value), key: 1, thread: 1)) }
    #expect(values.ordered().map(\.description) == ["15", "16", "17", "18", "19"])
    // Another thread's values go to the shared ring, interleaved by key.
    #expect(values.write(TraceValue(20), key: 2, thread: 2))
    #expect(values.write(TraceValue(21), key: 3, thread: 1))
    #expect(values.ordered().map(\.description) == ["17", "18", "19", "20", "21"])
  }

  @Test("a subject's values from its owning thread and from others, in the order the sends began")
  func sendersInSendOrder() {
    let values = NodeValues(limit: 8)
    // Thread 1 owns the sender's ring; thread 2 writes the shared ring; the keys are send ids.
    #expect(values.write(TraceValue(1), key: 10, thread: 1))
    #expect(values.write(TraceValue(2), key: 11, thread: 2))
    #expect(values.write(TraceValue(3), key: 12, thread: 1))
    #expect(values.write(TraceValue(4), key: 13, thread: 2))
    #expect(values.ordered().map(\.description) == ["1", "2", "3", "4"])
    // Two other threads whose sends began in one order and wrote in the other (a value's stamp
    // is taken after its key): listed in the order the sends began.
    #expect(values.write(TraceValue(6), key: 15, thread: 3))
    #expect(values.write(TraceValue(5), key: 14, thread: 2))
    #expect(values.ordered().map(\.description) == ["1", "2", "3", "4", "5", "6"])
    let texts = NodeValues(limit: 3)
    texts.remember(text: TraceValue("b"), stamp: texts.nextStamp(), key: 21)
    texts.remember(text: TraceValue("a"), stamp: texts.nextStamp(), key: 20)
    #expect(texts.ordered().map(\.description) == ["a", "b"])
  }

  @Test("strings taken in out of order: the newest `limit` kept, an older one dropped")
  func stringsTakenInOutOfOrder() {
    let values = NodeValues(limit: 2)
    // Drained from two threads' queues: the second queue's are older than the first's.
    values.remember(text: TraceValue("five"), stamp: 5, key: 5)
    values.remember(text: TraceValue("one"), stamp: 1, key: 1)
    values.remember(text: TraceValue("three"), stamp: 3, key: 3)
    #expect(values.ordered().map(\.description) == ["three", "five"])
    values.remember(text: TraceValue("zero"), stamp: 0, key: 0)
    #expect(values.ordered().map(\.description) == ["three", "five"])
    values.remember(text: TraceValue("six"), stamp: 6, key: 6)
    #expect(values.ordered().map(\.description) == ["five", "six"])
  }

  @Test("a string is not written in place; with its stamp it sits in delivery order")
  func stringsInOrder() {
    let values = NodeValues(limit: 4)
    #expect(!values.write(TraceValue("one"), key: 1, thread: 1))
    values.remember(text: TraceValue("one"), stamp: values.nextStamp(), key: 1)
    values.remember(text: TraceValue("two"), stamp: values.nextStamp(), key: 1)
    #expect(values.ordered().map(\.description) == ["one", "two"])
    // Plain values and strings in one node (which needs two element types) are ordered by key.
    #expect(values.write(TraceValue(3), key: 2, thread: 1))
    #expect(values.ordered().map(\.description) == ["one", "two", "3"])
    for value in 4..<10 { #expect(values.write(TraceValue(value), key: 3, thread: 1)) }
    #expect(values.ordered().map(\.description) == ["6", "7", "8", "9"])
  }

  @Test("a merged node's values move to its canonical node, by key, and later ones follow")
  func forwarding() {
    let merged = NodeValues(limit: 8)
    let canonical = NodeValues(limit: 8)
    #expect(canonical.write(TraceValue(10), key: 1, thread: 1))
    #expect(merged.write(TraceValue(1), key: 2, thread: 1))
    merged.remember(text: TraceValue("two"), stamp: merged.nextStamp(), key: 3)
    #expect(canonical.write(TraceValue(20), key: 4, thread: 2))
    merged.forward(to: canonical)
    #expect(merged.current.takeUnretainedValue() === canonical)
    #expect(merged.target === canonical)
    #expect(
      merged.current._withUnsafeGuaranteedRef { $0.write(TraceValue(3), key: 5, thread: 1) })
    #expect(canonical.ordered().map(\.description) == ["10", "1", "two", "20", "3"])
  }

  @Test("a subscription's ring keeps the newest values in order; an ended claimant's are folded in")
  func claimantRings() {
    let values = NodeValues(limit: 4)
    let first = SeqlockRing.values(limit: values.limit)
    for value in 1...6 { keep(value, in: first, time: 1) }
    #expect(first.values.map(\.value.description) == ["3", "4", "5", "6"])
    #expect(values.ordered(with: [first]).map(\.description) == ["3", "4", "5", "6"])
    values.fold(first)
    let second = SeqlockRing.values(limit: values.limit)
    keep(7, in: second, time: 2)
    keep(8, in: second, time: 2)
    #expect(values.ordered(with: [second]).map(\.description) == ["5", "6", "7", "8"])
    values.fold(second)
    #expect(values.ordered().map(\.description) == ["5", "6", "7", "8"])
  }

  @Test("the newest values of many sources: by key, each source in its order, ties to the earlier")
  func newestOfSources() {
    func keyed(_ pairs: [(UInt64, Int)]) -> [NodeValues.Keyed] {
      pairs.map { ($0.0, TraceValue($0.1)) }
    }
    let sources = [
      keyed([(1, 10), (3, 11), (3, 12)]),
      [],
      keyed([(2, 20), (3, 21), (1, 22)]),
      keyed([(0, 30)]),
    ]
    let all = NodeValues.newest(10, of: sources).map(\.value.description)
    // The third source's keys go down; merged from the ends, every source keeps its order.
    #expect(all == ["30", "10", "20", "21", "22", "11", "12"])
    #expect(NodeValues.newest(3, of: sources).map(\.value.description) == ["22", "11", "12"])
    let monotonic = [keyed([(1, 10), (3, 11), (3, 12)]), keyed([(2, 20), (3, 21), (4, 22)])]
    #expect(
      NodeValues.newest(10, of: monotonic).map(\.value.description)
        == ["10", "20", "11", "12", "21", "22"])
    #expect(NodeValues.newest(3, of: []).isEmpty)
    #expect(NodeValues.newest(2, of: [keyed([(5, 1), (1, 2), (9, 3)])]).map(\.key) == [1, 9])
    // Thousands of sources (the live subscriptions of a pipeline rebuilt at one call site): the
    // newest come from the end, whichever sources hold them.
    let many: [[NodeValues.Keyed]] = (0..<5_000).map { (source: Int) -> [NodeValues.Keyed] in
      (0..<8).map { (offset: Int) -> NodeValues.Keyed in
        let number = source * 8 + offset
        return (UInt64(number), TraceValue(number))
      }
    }
    let newest = NodeValues.newest(8, of: many.shuffled()).map(\.key)
    #expect(newest == (39_992..<40_000).map { UInt64($0) })
  }

  @Test("a node's claim: one subscription at a time, another once it is released")
  func claims() {
    let values = NodeValues(limit: 2)
    #expect(values.claimant == 0)
    #expect(values.claim(by: 7))
    #expect(values.claim(by: 7))
    #expect(!values.claim(by: 8))
    values.release(by: 8)
    #expect(values.claimant == 7)
    values.release(by: 7)
    #expect(values.claim(by: 8))
  }

  @Test("threads sending into one subject: no torn value, each thread's values in its order")
  func concurrentSenders() {
    let values = NodeValues(limit: 8)
    let rounds = 20_000
    // Three threads: the first to send owns the sender's ring, the other two share the shared
    // ring.
    DispatchQueue.concurrentPerform(iterations: 3) { writer in
      for index in 0..<rounds {
        _ = values.write(
          TraceValue(Pair(writer: writer, check: index * 3 + writer)), key: UInt64(index),
          thread: UInt32(writer))
      }
    }
    checkPairs(values.ordered().map(\.description), writers: 3)
  }

  @Test("a subscription's ring read while its owner writes: no torn value, in order")
  func ringReadWhileWritten() {
    let ring = SeqlockRing.values(limit: 8)
    let rounds = 20_000
    DispatchQueue.concurrentPerform(iterations: 2) { thread in
      if thread == 0 {
        for index in 0..<rounds {
          // Both words and the key agree: a slot read while rewritten would break that.
          let pair = Pair(writer: index, check: index * 3 + 1)
          guard let plain = TraceValue(pair).plain else { return }
          ring.keep(type: plain.type, plain.words.0, plain.words.1, key: UInt64(index))
        }
      } else {
        for _ in 0..<rounds / 10 {
          let kept = ring.values
          #expect(kept.count <= 8)
          #expect(zip(kept, kept.dropFirst()).allSatisfy { $0.key < $1.key })
          for (key, value) in kept {
            #expect(value.description == "\(key):\(key * 3 + 1)", "a torn value")
          }
        }
      }
    }
    #expect(ring.values.map(\.key) == (UInt64(rounds - 8)..<UInt64(rounds)).map { $0 })
  }

  @Test("a subscription that ended before its first delivery arrived claims nothing")
  func noClaimAfterEnd() {
    let values = NodeValues(limit: 4)
    let ended = SubscriptionRecord(
      id: 1, node: 2, subscriber: 3, kind: .subscription, values: values)
    // Disposed on one thread (the recorder ends it) while another still delivers to it.
    #expect(ended.endClaim() == nil)
    values.release(by: 1)
    #expect(ended.valueRing == nil)
    #expect(values.claimant == 0, "a claim nobody would release")
    let next = SubscriptionRecord(
      id: 4, node: 2, subscriber: 5, kind: .subscription, values: values)
    #expect(next.valueRing != nil)
    #expect(values.claimant == 4)
    // Ended after its claim: its ring is handed back for folding.
    #expect(next.endClaim() === next.claimedRing)
    #expect(next.claimedRing != nil)
    // A delivery that passed the checks before the subscription ended, and claims after: it
    // gives the node back.
    let late = SubscriptionRecord(
      id: 6, node: 2, subscriber: 7, kind: .subscription, values: values)
    values.release(by: 4)
    #expect(late.endClaim() == nil)
    #expect(late.claimValues() == nil)
    #expect(values.claimant == 0, "a claim nobody would release")
  }

  @Test("a subscription's ring is released with its record")
  func ringLifetime() {
    weak var weakRing: SeqlockRing?
    do {
      let values = NodeValues(limit: 4)
      let record = SubscriptionRecord(
        id: 1, node: 2, subscriber: 3, kind: .subscription, values: values)
      #expect(record.claimedRing == nil)
      let ring = record.valueRing
      #expect(ring != nil)
      #expect(values.claimant == 1)
      weakRing = record.claimedRing
      #expect(weakRing != nil)
      let other = SubscriptionRecord(
        id: 4, node: 2, subscriber: 5, kind: .subscription, values: values)
      #expect(other.valueRing == nil, "a second subscription does not report the node's values")
    }
    #expect(weakRing == nil)
  }

  /// Checks descriptions of `Pair`s from `writers` writers: whole, and each writer's in
  /// increasing order.
  private func checkPairs(_ kept: [String], writers: Int = 2) {
    #expect(!kept.isEmpty && kept.count <= 8)
    var last = Array(repeating: -1, count: writers)
    for description in kept {
      let parts = description.split(separator: ":").compactMap { Int($0) }
      #expect(parts.count == 2)
      guard parts.count == 2 else { continue }
      let (writer, check) = (parts[0], parts[1])
      #expect((0..<writers).contains(writer))
      guard (0..<writers).contains(writer) else { continue }
      #expect(check % writers == writer, "a torn value: \(description)")
      #expect(check > last[writer])
      last[writer] = check
    }
  }
}
