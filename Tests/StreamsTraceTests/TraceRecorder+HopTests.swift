import Dispatch
import Streams
import StreamsState
import StreamsTest
import StreamsTrace
import Testing

@Suite("Trace recorder: causes across hops", .serialized, .mainSchedulerExclusive)
struct TraceRecorderHopTests {
  @Test("observe(on:) on virtual time: the send after the hop is caused by the send before it")
  func virtualTimeHopSends() throws {
    let scheduler = TestScheduler(initialClock: 0)
    let graph = TraceRecorder.record {
      let input = PublishSubject<Int>()
      let output = PublishSubject<Int>()
      _ = input.observe(on: scheduler).subscribe(onNext: { output.onNext($0 * 10) })
      input.onNext(1)
      scheduler.start()
    }
    let root = try #require(graph.deliveries.first { $0.cause == nil })
    let chain = try #require(graph.chain(of: root.id))
    // send into input → (hop) → send into output, by the subscriber
    #expect(chain.deliveries.map(\.hop) == [.direct, .scheduler])
    #expect(chain.deliveries.map(\.value) == ["1", "10"])
    #expect(chain.deliveries.last?.cause == root.id)
    let subscriber = try #require(graph.nodes.first { $0.kind == "subscribe" })
    #expect(chain.deliveries.last?.from == subscriber.id)
    // The hop is named after the scheduler, not the thread.
    #expect(chain.deliveries.map(\.queue) == [nil, "TestScheduler"])
    #expect(chain.steps.last?.hasSuffix(" [via TestScheduler]") == true)
  }

  @Test("with a timeline, the scheduled delivery's cause is the one that scheduled it")
  func virtualTimeHop() throws {
    let scheduler = TestScheduler(initialClock: 0)
    let graph = TraceRecorder.record(configuration: TraceConfiguration(timeline: true)) {
      let input = PublishSubject<Int>()
      let output = PublishSubject<Int>()
      _ = input.observe(on: scheduler).subscribe(onNext: { output.onNext($0 * 10) })
      input.onNext(1)
      scheduler.start()
    }
    let roots = graph.deliveries.filter { $0.cause == nil }
    #expect(roots.count == 1)
    let root = try #require(roots.first)
    let chain = try #require(graph.chain(of: root.id))
    // send into input → input → observe(on:) → (hop) → the subscriber → send into output
    #expect(chain.deliveries.map(\.hop) == [.direct, .direct, .scheduler, .direct])
    #expect(chain.deliveries.map(\.value) == ["1", "1", "1", "10"])
  }

  @Test("observe(on:) on a queue: the chain continues on the other thread, marked as a hop")
  func queueHopSends() throws {
    let queue = SerialDispatchQueueScheduler(internalSerialQueueName: "trace.hop")
    let done = DispatchSemaphore(value: 0)
    let graph = TraceRecorder.record {
      let input = PublishSubject<Int>()
      let output = PublishSubject<Int>()
      let subscription = input.observe(on: queue).subscribe(onNext: {
        output.onNext($0)
        done.signal()
      })
      input.onNext(7)
      done.wait()
      subscription.dispose()
    }
    let root = try #require(graph.deliveries.first { $0.cause == nil })
    let chain = try #require(graph.chain(of: root.id))
    #expect(chain.deliveries.count == 2)
    let hopped = try #require(chain.deliveries.last)
    #expect(hopped.hop == .scheduler)
    #expect(hopped.thread != root.thread)
    // Named by the queue's label, in the chain and through a dump.
    #expect(hopped.queue == "queue trace.hop")
    #expect(chain.steps.last?.hasSuffix(" [via queue trace.hop]") == true)
    let read = try TraceGraph(dump: graph.dump())
    #expect(read.deliveries.map(\.queue) == graph.deliveries.map(\.queue))
  }

  @Test("with a timeline, every delivery after a queue hop is on the other thread")
  func queueHop() throws {
    let queue = SerialDispatchQueueScheduler(internalSerialQueueName: "trace.hop")
    let done = DispatchSemaphore(value: 0)
    let graph = TraceRecorder.record(configuration: TraceConfiguration(timeline: true)) {
      let input = PublishSubject<Int>()
      let subscription = input.observe(on: queue).subscribe(onNext: { _ in done.signal() })
      input.onNext(7)
      done.wait()
      subscription.dispose()
    }
    let root = try #require(graph.deliveries.first { $0.cause == nil })
    let chain = try #require(graph.chain(of: root.id))
    #expect(chain.deliveries.count == 3)
    let hopped = try #require(chain.deliveries.last)
    #expect(hopped.hop == .scheduler)
    #expect(hopped.thread != root.thread)
    // Named by the queue's label, in the chain and through a dump.
    #expect(hopped.queue == "queue trace.hop")
    #expect(chain.steps.last?.hasSuffix(" [via queue trace.hop]") == true)
    let read = try TraceGraph(dump: graph.dump())
    #expect(read.deliveries.map(\.queue) == graph.deliveries.map(\.queue))
  }

  @Test("a bridge's Task carries the cause of the delivery that started it")
  func taskHop() async throws {
    let recorder = TraceRecorder()
    try await Tracing.withTracer(recorder) {
      let input = PublishSubject<Int>()
      let output = PublishSubject<Int>()
      let done = AsyncStream<Void>.makeStream()
      let subscription =
        input
        .flatMapLatest { value in Single<Int>.task { value * 10 }.asObservable() }
        .subscribe(onNext: {
          output.onNext($0)
          done.continuation.yield()
        })
      input.onNext(4)
      var signals = done.stream.makeAsyncIterator()
      _ = await signals.next()
      subscription.dispose()
      let graph = recorder.graph
      let root = try #require(graph.deliveries.first { $0.cause == nil && $0.value == "4" })
      let chain = try #require(graph.chain(of: root.id))
      // send into input → (the task) → send into output, by the subscriber
      #expect(chain.deliveries.map(\.value) == ["4", "40"])
      #expect(chain.deliveries.map(\.hop) == [.direct, .task])
      #expect(chain.deliveries.map(\.queue) == [nil, "Task"])
    }
  }

  @Test("a hop to the main queue is named so, whichever scheduler makes it")
  @MainActor
  func mainQueueHop() async throws {
    let recorder = TraceRecorder()
    try await Tracing.withTracer(recorder) {
      let input = PublishSubject<Int>()
      let output = PublishSubject<Int>()
      // asyncInstance schedules through the queue-backed scheduler, not MainScheduler's own path.
      let subscription = input.observe(on: MainScheduler.asyncInstance)
        .subscribe(onNext: { output.onNext($0) })
      input.onNext(5)
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        DispatchQueue.main.async { continuation.resume() }
      }
      subscription.dispose()
      let graph = recorder.graph
      let root = try #require(graph.deliveries.first { $0.cause == nil && $0.value == "5" })
      let chain = try #require(graph.chain(of: root.id))
      #expect(chain.deliveries.map(\.queue) == [nil, "main queue"])
    }
  }

  @Test("a hop made under one installed recorder and recorded by the next keeps its name")
  func labelAcrossRecorders() async {
    // Installed process-wide (a hop under a recorder bound with `withTracer` keeps that one):
    // in a child process of its own.
    await #expect(processExitsWith: .success) {
      let scheduler = TestScheduler(initialClock: 0)
      let first = TraceRecorder()
      let second = TraceRecorder()
      Tracing.install(first)
      let input = PublishSubject<Int>()
      let output = PublishSubject<Int>()
      let subscription = input.observe(on: scheduler).subscribe(onNext: { output.onNext($0) })
      input.onNext(1)  // scheduled under the first recorder
      Tracing.install(second)
      scheduler.start()  // runs, and sends into output, under the second
      subscription.dispose()
      for graph in [first.graph, second.graph] {
        for delivery in graph.deliveries where delivery.hop != .direct {
          precondition(delivery.queue == "TestScheduler", "\(delivery)")
        }
      }
      precondition(second.graph.deliveries.contains { $0.queue == "TestScheduler" })
    }
  }

  @Test("a state binding's hop to the main queue carries the cause")
  @MainActor
  func bindingHop() async throws {
    let recorder = TraceRecorder(configuration: TraceConfiguration(timeline: true))
    try await Tracing.withTracer(recorder) {
      let cell = StateCell(0)
      let input = PublishSubject<Int>()
      let binding = input.bind(to: cell)
      // A detached task does not inherit the tracer: it binds it.
      await Task.detached { Tracing.withTracer(recorder) { input.onNext(3) } }.value
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        DispatchQueue.main.async { continuation.resume() }
      }
      #expect(cell.value == 3)
      binding.dispose()
      let graph = recorder.graph
      let root = try #require(graph.deliveries.first { $0.cause == nil })
      let chain = try #require(graph.chain(of: root.id))
      #expect(chain.deliveries.count == 2)  // send into input, input → the binding
    }
  }
}

@Suite("Trace recorder: terminal call sites", .serialized, .mainSchedulerExclusive)
struct TraceRecorderTerminalTests {
  @Test("drive and emit record the caller's line as their terminal node")
  @MainActor
  func driveAndEmitSites() async throws {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      DispatchQueue.main.async { continuation.resume() }
    }
    let recorder = TraceRecorder()
    try Tracing.withTracer(recorder) {
      let relay = BehaviorRelay(value: 1)
      let driven = relay.asDriver().drive(onNext: { _ in })
      let emitted = relay.asSignal(onErrorJustReturn: 0).emit(onNext: { _ in })
      driven.dispose()
      emitted.dispose()
      let graph = recorder.graph
      let drive = try #require(graph.nodes.first { $0.kind == "drive" })
      let emit = try #require(graph.nodes.first { $0.kind == "emit" })
      #expect(drive.file == "StreamsTraceTests/TraceRecorder+HopTests.swift")
      #expect(emit.file == drive.file)
      #expect(emit.line == drive.line + 1)
      #expect(drive.role == .terminal)
    }
  }
}
