import Foundation
import Streams
import StreamsTrace
import Testing

/// An object whose description changes: the recorder must describe it when it is delivered.
private final class MutableCount: CustomStringConvertible, @unchecked Sendable {
  var count = 0
  var description: String { "count \(count)" }
}

/// A value whose last copy, when released, sends into a subject: releasing it under the
/// recorder's lock would re-enter the lock.
private struct Tripwire: CustomStringConvertible {
  final class Box {
    let onRelease: () -> Void
    init(onRelease: @escaping () -> Void) { self.onRelease = onRelease }
    deinit { onRelease() }
  }
  let box: Box
  let number: Int
  var description: String { "tripwire \(number)" }
}

@Suite("Trace recorder: queues, values, threads", .serialized)
struct TraceRecorderQueueTests {
  @Test("more events than a thread's queue holds: counts exact, the newest values and sends kept")
  func overflowingQueue() throws {
    let total = 5_000
    let graph = TraceRecorder.record(configuration: TraceConfiguration(recentDeliveries: 16)) {
      let subject = PublishSubject<Int>()
      let subscription = subject.map { $0 * 2 }.subscribe(onNext: { _ in })
      for index in 0..<total { subject.onNext(index) }
      subscription.dispose()
    }
    let map = try #require(graph.nodes.first { $0.kind == "map" })
    #expect(map.eventCount == total)
    #expect(map.recentValues == (total - 8..<total).map { "\($0 * 2)" })
    let subject = try #require(graph.nodes.first { $0.kind == "PublishSubject" })
    #expect(subject.recentValues == (total - 8..<total).map { "\($0)" })
    #expect(graph.deliveries.count == 16)
    #expect(graph.deliveries.map(\.value) == (total - 16..<total).map { "\($0)" })
    #expect(graph.deliveries.map(\.id) == graph.deliveries.map(\.id).sorted())
  }

  @Test("an object is described when it is delivered, a value when the graph is read")
  func descriptions() throws {
    let counter = MutableCount()
    let graph = TraceRecorder.record {
      let subject = PublishSubject<MutableCount>()
      let subscription = subject.subscribe(onNext: { _ in })
      subject.onNext(counter)
      counter.count = 5
      subject.onNext(counter)
      counter.count = 9
      subscription.dispose()
    }
    let subject = try #require(graph.nodes.first { $0.kind == "PublishSubject" })
    #expect(subject.recentValues == ["count 0", "count 5"])
  }

  @Test("an element holding an object is described when delivered, and not kept alive")
  func elementsHoldingObjects() throws {
    let recorder = TraceRecorder(configuration: TraceConfiguration(recentValues: 1))
    try Tracing.withTracer(recorder) {
      let released = PublishSubject<Int>()
      var releases = 0
      let watcher = released.subscribe(onNext: { _ in releases += 1 })
      let subject = PublishSubject<Tripwire>()
      let subscription = subject.subscribe(onNext: { _ in })
      for number in 0..<3_000 {
        subject.onNext(Tripwire(box: .init(onRelease: { released.onNext(number) }), number: number))
      }
      // Each tripwire was released as soon as its delivery ended (its release sends into
      // `released`, which records again): the recorder kept only its description.
      #expect(releases == 3_000)
      let graph = recorder.graph
      let node = try #require(graph.nodes.first { $0.id == subject.traceNodeID })
      #expect(node.recentValues == ["tripwire 2999"])
      let sends = graph.deliveries.filter { $0.to == node.id }
      #expect(sends.last?.value == "tripwire 2999")
      subscription.dispose()
      watcher.dispose()
    }
  }

  @Test("a pipeline rebuilt per element keeps one node, whose values are the newest of all")
  func rebuiltPipelineValues() throws {
    let total = 5_000
    let graph = TraceRecorder.record {
      let subject = PublishSubject<Int>()
      let subscription = subject.flatMap { Observable.just($0).map { $0 * 10 } }
        .subscribe(onNext: { _ in })
      for index in 0..<total { subject.onNext(index) }
      subscription.dispose()
    }
    // The inner `map` of each element is merged into one canonical node: its values are there,
    // in delivery order, and the graph does not grow with the elements.
    let maps = graph.nodes.filter { $0.kind == "map" }
    #expect(maps.count == 1)
    let map = try #require(maps.first)
    // Each inner `map` emits its element and completes.
    #expect(map.eventCount == 2 * total)
    #expect(map.recentValues == (total - 8..<total).map { "\($0 * 10)" })
    #expect(graph.nodes.count < 10)
  }

  @Test("values sent on several threads are all counted, and the node keeps 8 of them")
  func valuesFromSeveralThreads() throws {
    let recorder = TraceRecorder()
    try Tracing.withTracer(recorder) {
      let subject = PublishSubject<Int>()
      let subscription = subject.map { $0 + 1 }.subscribe(onNext: { _ in })
      concurrentlyTraced(iterations: 4) { thread in
        for index in 0..<1_000 { subject.onNext(thread * 10_000 + index) }
      }
      let graph = recorder.graph
      subscription.dispose()
      let map = try #require(graph.nodes.first { $0.kind == "map" })
      #expect(map.recentValues.count == 8)
      let sent = Set(
        (0..<4).flatMap { thread in (0..<1_000).map { "\(thread * 10_000 + $0 + 1)" } })
      #expect(map.recentValues.allSatisfy { sent.contains($0) })
    }
  }

  @Test("sends on several threads, read while they are made: whole, newest last, at most the ring")
  func sendsReadWhileMade() throws {
    let recorder = TraceRecorder(configuration: TraceConfiguration(recentDeliveries: 64))
    try Tracing.withTracer(recorder) {
      let subject = PublishSubject<Int>()
      let subscription = subject.subscribe(onNext: { _ in })
      let sent = Set((0..<4).flatMap { thread in (0..<2_000).map { "\(thread * 10_000 + $0)" } })
      concurrentlyTraced(iterations: 5) { thread in
        guard thread < 4 else {
          // The reader: each graph shows whole sends, however the senders are interleaved.
          for _ in 0..<20 {
            let deliveries = recorder.graph.deliveries
            #expect(deliveries.count <= 64)
            #expect(deliveries.allSatisfy { $0.to == subject.traceNodeID && $0.event == .next })
            #expect(deliveries.allSatisfy { sent.contains($0.value ?? "") })
            #expect(zip(deliveries, deliveries.dropFirst()).allSatisfy { $0.id < $1.id })
          }
          return
        }
        for index in 0..<2_000 { subject.onNext(thread * 10_000 + index) }
      }
      let graph = recorder.graph
      subscription.dispose()
      #expect(graph.deliveries.count == 64)
      let ids = graph.deliveries.map(\.id)
      #expect(ids == ids.sorted())
      let node = try #require(graph.nodes.first { $0.id == subject.traceNodeID })
      #expect(node.eventCount == 8_000)
    }
  }

  @Test("a node's values: its subscription's while it lives, the next one's after it, in order")
  func claimantHandoff() throws {
    let recorder = TraceRecorder()
    try Tracing.withTracer(recorder) {
      let subject = PublishSubject<Int>()
      let tens = subject.map { $0 * 10 }
      let first = tens.subscribe(onNext: { _ in })
      // A second subscriber of a shared node: the element is remembered once.
      let shared = subject.map { $0 + 1 }.share()
      let sharedFirst = shared.subscribe(onNext: { _ in })
      let sharedSecond = shared.subscribe(onNext: { _ in })
      subject.onNext(1)
      subject.onNext(2)
      // Read while the claimant lives: its ring is read with the node's values.
      let live = recorder.graph
      let liveMap = try #require(live.nodes.first { $0.id == tens.traceNodeID })
      #expect(liveMap.recentValues == ["10", "20"])
      first.dispose()
      subject.onNext(3)  // no subscriber of `tens`: nothing delivered there
      let second = tens.subscribe(onNext: { _ in })
      subject.onNext(4)
      subject.onNext(5)
      sharedFirst.dispose()
      subject.onNext(6)  // `share` still delivers to its second subscriber, which now reports
      let graph = recorder.graph
      second.dispose()
      sharedSecond.dispose()
      let map = try #require(graph.nodes.first { $0.id == tens.traceNodeID })
      #expect(map.recentValues == ["10", "20", "40", "50", "60"])
      // `share`'s two subscribers got each element once between them: the first reported 2 to 6,
      // the second 7 once the first was gone.
      let share = try #require(graph.nodes.first { $0.id == shared.traceNodeID })
      #expect(share.eventCount == 11)
      #expect(share.recentValues == ["2", "3", "4", "5", "6", "7"])
    }
  }

  @Test("nodes merged into one, each subscribed and fed on its own thread: every value, whole")
  func mergedNodesFromThreads() throws {
    let threads = 4
    let recorder = TraceRecorder(configuration: TraceConfiguration(recentValues: 64))
    try Tracing.withTracer(recorder) {
      let subscriptions = CompositeDisposable()
      for thread in 0..<threads {
        runOnThreadAndJoin {
          // One call site: the pipelines of one shape merge into one node.
          let subject = PublishSubject<TwoWords>()
          let subscription = mergedPipeline(subject).subscribe(onNext: { _ in })
          subscriptions.insert(subscription)
          for index in 0..<3 { subject.onNext(TwoWords(thread: thread, index: index)) }
        }
      }
      // Read while every subscription lives: each one's ring is read with the canonical node's.
      let graph = recorder.graph
      subscriptions.dispose()
      let filters = graph.nodes.filter { $0.kind == "filter" }
      #expect(filters.count == 1)
      let filter = try #require(filters.first)
      #expect(filter.eventCount == threads * 3)
      #expect(filter.recentValues.count == threads * 3)
      for thread in 0..<threads {
        let values = filter.recentValues.filter { $0.hasPrefix("\(thread):") }
        #expect(values == (0..<3).map { "\(thread):\($0 * 7 + thread)" })
      }
    }
  }

  @Test("merged nodes delivering on four threads while the graph is read: whole values, in order")
  func mergedNodesConcurrently() throws {
    let threads = 4
    let perThread = 2_000
    let recorder = TraceRecorder(configuration: TraceConfiguration(recentValues: 64))
    try Tracing.withTracer(recorder) {
      let subjects = (0..<threads).map { _ in PublishSubject<TwoWords>() }
      let subscriptions = subjects.map { mergedPipeline($0).subscribe(onNext: { _ in }) }
      let done = AtomicFlag()
      concurrentlyTraced(iterations: threads + 1) { thread in
        guard thread < threads else {
          // A reader taking the graph while the rings are written.
          var reads = 0
          while !done.isSet || reads == 0 {
            checkMerged(recorder.graph, threads: threads)
            reads += 1
          }
          return
        }
        for index in 0..<perThread {
          subjects[thread].onNext(TwoWords(thread: thread, index: index))
        }
        if thread == 0 { done.set() }
      }
      let graph = recorder.graph
      for subscription in subscriptions { subscription.dispose() }
      let filter = try #require(graph.nodes.first { $0.kind == "filter" })
      #expect(filter.eventCount == threads * perThread)
      #expect(filter.recentValues.count == 64)
      checkMerged(graph, threads: threads)
    }
  }

  @Test("a subject fed from two threads lists its values in the order they were sent")
  func subjectFedFromTwoThreads() throws {
    let recorder = TraceRecorder()
    try Tracing.withTracer(recorder) {
      let subject = PublishSubject<Int>()
      let subscription = subject.subscribe(onNext: { _ in })
      subject.onNext(1)  // this thread owns the subject's ring of values
      runOnThreadAndJoin { subject.onNext(2) }  // another thread's goes to the shared ring
      subject.onNext(3)
      runOnThreadAndJoin { subject.onNext(4) }
      let graph = recorder.graph
      subscription.dispose()
      let node = try #require(graph.nodes.first { $0.id == subject.traceNodeID })
      #expect(node.recentValues == ["1", "2", "3", "4"])
    }
  }

  @Test("a subject's error is not one of its values")
  func subjectErrorNotAValue() throws {
    struct Failure: Error {}
    let graph = TraceRecorder.record {
      let subject = PublishSubject<String>()
      let subscription = subject.subscribe(onNext: { _ in }, onError: { _ in })
      subject.onNext("one")
      subject.onError(Failure())
      subscription.dispose()
    }
    let node = try #require(graph.nodes.first { $0.kind == "PublishSubject" })
    #expect(node.recentValues == ["one"])
  }

  @Test("what a thread recorded before it exited is in the graph")
  func exitedThread() throws {
    let recorder = TraceRecorder()
    try Tracing.withTracer(recorder) {
      let subject = PublishSubject<Int>()
      let subscription = subject.subscribe(onNext: { _ in })
      runOnThreadAndJoin {
        for index in 0..<100 { subject.onNext(index) }
      }
      let graph = recorder.graph
      subscription.dispose()
      let node = try #require(graph.nodes.first { $0.id == subject.traceNodeID })
      #expect(node.recentValues == (92..<100).map { "\($0)" })
      #expect(graph.deliveries.filter { $0.to == node.id }.count == 100)
    }
  }
}

/// A plain value of two words that must agree: `check` is `index * 7 + thread` (threads < 7).
private struct TwoWords: CustomStringConvertible {
  let thread: Int
  let check: Int
  init(thread: Int, index: Int) {
    self.thread = thread
    check = index * 7 + thread
  }
  var description: String { "\(thread):\(check)" }
}

/// Checks the merged filter node's values: one node, each value's words agreeing, each thread's
/// in order.
private func checkMerged(_ graph: TraceGraph, threads: Int) {
  let filters = graph.nodes.filter { $0.kind == "filter" }
  #expect(filters.count == 1)
  var last: [Int: Int] = [:]
  for value in filters.first?.recentValues ?? [] {
    let parts = value.split(separator: ":").compactMap { Int($0) }
    #expect(parts.count == 2, "not a value: \(value)")
    guard parts.count == 2 else { continue }
    let (thread, check) = (parts[0], parts[1])
    #expect((0..<threads).contains(thread))
    #expect(check % 7 == thread, "a torn value: \(value)")
    #expect(check > last[thread, default: -1], "out of order: \(value)")
    last[thread] = check
  }
}

/// Set once, read from other threads.
private final class AtomicFlag: @unchecked Sendable {
  // `@unchecked Sendable`: `value` is only touched under `lock`.
  private let lock = NSLock()
  private var value = false
  var isSet: Bool { lock.withLock { value } }
  func set() { lock.withLock { value = true } }
}

/// A pipeline built at one call site, so that its nodes merge into one.
private func mergedPipeline(_ subject: PublishSubject<TwoWords>) -> Observable<TwoWords> {
  subject.filter { $0.check >= 0 }
}

private final class ThreadBody {
  let body: @Sendable () -> Void
  init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}

/// Runs `body` on a new thread, with the tracer that the caller bound, and returns once that
/// thread has exited.
private func runOnThreadAndJoin(_ body: @escaping @Sendable () -> Void) {
  let body = traced(body)
  #if canImport(Darwin)
    var thread: pthread_t?
  #else
    var thread = pthread_t()
  #endif
  let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
  let result = pthread_create(
    &thread, nil,
    { raw in
      #if canImport(Darwin)
        Unmanaged<ThreadBody>.fromOpaque(raw).takeRetainedValue().body()
      #else
        Unmanaged<ThreadBody>.fromOpaque(raw!).takeRetainedValue().body()
      #endif
      return nil
    }, context)
  precondition(result == 0, "pthread_create failed: \(result)")
  #if canImport(Darwin)
    pthread_join(thread!, nil)
  #else
    pthread_join(thread, nil)
  #endif
}

/// `body`, made to run with the tracer bound where this is called, if any.
private func traced(_ body: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
  guard let tracer = Tracing.boundTracer else { return body }
  return { Tracing.withTracer(tracer, body) }
}
