import Dispatch
import Streams
import Testing

@testable import StreamsState

/// An object whose release the lifetime tests watch with a weak reference.
private final class Token: Sendable {}

/// A main-actor state type of the app's own, the target of the key-path binding.
@MainActor
private final class Header {
  var title = ""
  var count = 0
}

/// A value tagged with the thread that emitted it, for the stress test.
private struct Tagged: Equatable, Sendable {
  let thread: Int
  let index: Int
}

extension MainThreadDeliveryTests {
  @Suite("bind(to: StateCell)")
  struct StateBindingTests {
    @Test("an element emitted on the main queue is written at once")
    @MainActor
    func mainQueueWritesSynchronously() async {
      await drainMainQueue()
      let cell = StateCell(0)
      let relay = PublishRelay<Int>()
      var changes: [Int] = []
      cell.onChange { changes.append($0) }
      let binding = relay.bind(to: cell)
      relay.accept(1)
      #expect(cell.value == 1)
      relay.accept(2)
      #expect(cell.value == 2)
      #expect(changes == [1, 2])
      binding.dispose()
    }

    @Test("an element emitted off the main queue is written on the main queue after one hop")
    @MainActor
    func backgroundWritesAfterOneHop() async {
      await drainMainQueue()
      let cell = StateCell(0)
      let relay = PublishRelay<Int>()
      var changes: [Int] = []
      cell.onChange { value in
        dispatchPrecondition(condition: .onQueue(.main))
        MainActor.assertIsolated()
        changes.append(value)
      }
      let binding = relay.bind(to: cell)
      // The main queue waits in `sync`, so the hop cannot run before `sync` returns.
      DispatchQueue.global().sync { relay.accept(1) }
      #expect(cell.value == 0)
      #expect(changes == [])
      await drainMainQueue()
      #expect(cell.value == 1)
      #expect(changes == [1])
      await Task.detached { @Sendable in relay.accept(2) }.value
      await drainMainQueue()
      #expect(cell.value == 2)
      #expect(changes == [1, 2])
      binding.dispose()
    }

    @Test("a background element followed by a main-queue element: both written, in order")
    @MainActor
    func orderAcrossHop() async {
      await drainMainQueue()
      let cell = StateCell(0)
      let subject = PublishSubject<Int>()
      var changes: [Int] = []
      cell.onChange { changes.append($0) }
      let binding = subject.bind(to: cell)
      DispatchQueue.global().sync { subject.onNext(1) }
      subject.onNext(2)
      // The main-queue element writes the waiting one first, then itself.
      #expect(cell.value == 2)
      #expect(changes == [1, 2])
      await drainMainQueue()
      // The hop that was scheduled for 1 finds nothing left to write.
      #expect(cell.value == 2)
      #expect(changes == [1, 2])
      binding.dispose()
    }

    @Test("several background elements in a row are all written by one hop, in order")
    @MainActor
    func backlogInOrder() async {
      await drainMainQueue()
      let cell = StateCell(0)
      let subject = PublishSubject<Int>()
      var changes: [Int] = []
      cell.onChange { changes.append($0) }
      let binding = subject.bind(to: cell)
      DispatchQueue.global().sync {
        for value in 1...5 { subject.onNext(value) }
      }
      #expect(changes == [])
      await drainMainQueue()
      #expect(changes == [1, 2, 3, 4, 5])
      #expect(cell.value == 5)
      binding.dispose()
    }

    @Test("an element sent on the main queue while the backlog is being written lands last")
    @MainActor
    func reentrantElementDuringFlush() async {
      await drainMainQueue()
      let cell = StateCell(0)
      let subject = PublishSubject<Int>()
      var changes: [Int] = []
      cell.onChange { value in
        changes.append(value)
        // An observer of the cell that feeds the bound source, on the main queue.
        if value == 1 { subject.onNext(100) }
      }
      let binding = subject.bind(to: cell)
      DispatchQueue.global().sync {
        for value in 1...3 { subject.onNext(value) }
      }
      await drainMainQueue()
      #expect(changes == [1, 2, 3, 100])
      #expect(cell.value == 100)
      binding.dispose()
    }

    @Test("disposing the binding while its backlog is being written drops the rest")
    @MainActor
    func disposeDuringFlush() async {
      await drainMainQueue()
      let cell = StateCell(0)
      let subject = PublishSubject<Int>()
      var changes: [Int] = []
      let binding = subject.bind(to: cell)
      cell.onChange { value in
        changes.append(value)
        if value == 2 { binding.dispose() }
      }
      DispatchQueue.global().sync {
        for value in 1...4 { subject.onNext(value) }
      }
      await drainMainQueue()
      #expect(changes == [1, 2])
      #expect(cell.value == 2)
    }

    @Test("bind(to:) an optional cell wraps each element")
    @MainActor
    func optionalCell() async {
      await drainMainQueue()
      let cell = StateCell<Int?>(nil)
      let subject = PublishSubject<Int>()
      let binding = subject.bind(to: cell)
      subject.onNext(3)
      #expect(cell.value == 3)
      DispatchQueue.global().sync { subject.onNext(4) }
      await drainMainQueue()
      #expect(cell.value == 4)
      binding.dispose()
    }

    @Test("Infallible.bind(to:) a cell and an optional cell")
    @MainActor
    func infallible() async {
      await drainMainQueue()
      let cell = StateCell(0)
      let optional = StateCell<Int?>(nil)
      let relay = BehaviorRelay(value: 7)
      let first = relay.asInfallible().bind(to: cell)
      let second = relay.asInfallible().bind(to: optional)
      #expect(cell.value == 7)
      #expect(optional.value == 7)
      relay.accept(8)
      #expect(cell.value == 8)
      #expect(optional.value == 8)
      first.dispose()
      second.dispose()
      relay.accept(9)
      #expect(cell.value == 8)
      #expect(optional.value == 8)
    }

    @Test("Driver.drive(cell) writes at once on the main thread, also an optional cell")
    @MainActor
    func drive() async {
      await drainMainQueue()
      let cell = StateCell(0)
      let optional = StateCell<Int?>(nil)
      let subject = PublishSubject<Int>()
      let driver = subject.asDriver(onErrorJustReturn: -1)
      let first = driver.drive(cell)
      let second = driver.drive(optional)
      subject.onNext(1)
      #expect(cell.value == 1)
      #expect(optional.value == 1)
      await Task.detached { @Sendable in subject.onNext(2) }.value
      await drainMainQueue()
      #expect(cell.value == 2)
      #expect(optional.value == 2)
      first.dispose()
      second.dispose()
      #expect(!subject.hasObservers)
    }

    @Test("Signal.emit(to:) a cell and an optional cell")
    @MainActor
    func emit() async {
      await drainMainQueue()
      let cell = StateCell("")
      let optional = StateCell<String?>(nil)
      let relay = PublishRelay<String>()
      let first = relay.asSignal().emit(to: cell)
      let second = relay.asSignal().emit(to: optional)
      relay.accept("tap")
      #expect(cell.value == "tap")
      #expect(optional.value == "tap")
      first.dispose()
      second.dispose()
      relay.accept("late")
      await drainMainQueue()
      #expect(cell.value == "tap")
      #expect(optional.value == "tap")
    }

    @Test("bind(to: object, keyPath) writes a property of a main-actor object")
    @MainActor
    func keyPath() async {
      await drainMainQueue()
      let header = Header()
      let subject = PublishSubject<String>()
      let counts = PublishSubject<Int>()
      let titles = subject.bind(to: header, \.title)
      let countBinding = counts.bind(to: header, \.count)
      subject.onNext("Today")
      #expect(header.title == "Today")
      DispatchQueue.global().sync { counts.onNext(3) }
      #expect(header.count == 0)
      await drainMainQueue()
      #expect(header.count == 3)
      titles.dispose()
      countBinding.dispose()
      subject.onNext("Tomorrow")
      #expect(header.title == "Today")
    }

    @Test("bind(to: object, keyPath) holds the object weakly and ends at the next element")
    @MainActor
    func keyPathEndsWithObject() async {
      await drainMainQueue()
      let subject = PublishSubject<String>()
      weak var weakHeader: Header?
      var header: Header? = Header()
      weakHeader = header
      let binding = subject.bind(to: header!, \.title)
      subject.onNext("a")
      #expect(header?.title == "a")
      header = nil
      #expect(weakHeader == nil, "the binding does not hold the object")
      #expect(subject.hasObservers, "nothing has told the binding yet")
      subject.onNext("b")
      #expect(!subject.hasObservers, "the element found the object gone and ended the binding")
      withExtendedLifetime(binding) {}
    }
  }
}

extension MainThreadDeliveryTests {
  @Suite("bind(to: StateCell) lifetime")
  struct StateBindingLifetimeTests {
    /// How a binding ends.
    enum End: String, CaseIterable, CustomTestStringConvertible {
      case dispose, disposeOffMain, complete, cellEnd
      var testDescription: String { rawValue }
    }

    @Test(
      "every end releases the upstream closures and detaches from the cell", arguments: End.allCases
    )
    @MainActor
    func everyEndReleases(end: End) async {
      await drainMainQueue()
      let subject = PublishSubject<Int>()
      weak var weakToken: Token?
      var cell: StateCell<Int>? = StateCell(0)
      weak let weakCell = cell
      var binding: (any Disposable)?
      do {
        let token = Token()
        weakToken = token
        binding = subject.map { value in
          withExtendedLifetime(token) {}
          return value
        }.bind(to: cell!)
      }
      subject.onNext(1)
      #expect(cell?.value == 1)
      #expect(cell?.observers.count == 1)
      switch end {
      case .dispose: binding?.dispose()
      case .disposeOffMain:
        let kept = binding!
        await Task.detached { @Sendable in kept.dispose() }.value
      case .complete: subject.onCompleted()
      case .cellEnd: cell = nil
      }
      await drainMainQueue()
      #expect(!subject.hasObservers)
      #expect(weakToken == nil, "released after \(end) while the disposable is kept")
      if let cell {
        #expect(cell.observers.count == 0, "the cell let go of the binding after \(end)")
        // After disposal the subject has no observer left to reach the cell (after completion it
        // ignores the element itself).
        subject.onNext(2)
        #expect(cell.value == 1)
      }
      cell = nil
      #expect(weakCell == nil, "the binding does not hold the cell")
      withExtendedLifetime(binding) {}
    }

    @Test("the cell's end ends a binding whose elements arrive off the main queue")
    @MainActor
    func cellEndEndsBackgroundBinding() async {
      await drainMainQueue()
      let subject = PublishSubject<Int>()
      var cell: StateCell<Int>? = StateCell(0)
      let binding = subject.bind(to: cell!)
      DispatchQueue.global().sync { subject.onNext(1) }
      cell = nil
      // The hop finds the cell gone.
      await drainMainQueue()
      #expect(!subject.hasObservers)
      await Task.detached { @Sendable in subject.onNext(2) }.value
      await drainMainQueue()
      #expect(!subject.hasObservers)
      withExtendedLifetime(binding) {}
    }

    @Test("a cell deinitialized before a background binding attaches still ends the binding")
    @MainActor
    func cellEndBeforeAttach() async {
      await drainMainQueue()
      let subject = PublishSubject<Int>()
      var cell: StateCell<Int>? = StateCell(0)
      weak let weakCell = cell
      // Bound off the main queue: the binding registers with the cell on the main queue's next
      // turn, which the cell does not live to see.
      let binding = DispatchQueue.global().sync { subject.bind(to: cell!) }
      cell = nil
      #expect(weakCell == nil)
      await drainMainQueue()
      #expect(!subject.hasObservers, "the binding must end with its cell, before any element")
      withExtendedLifetime(binding) {}
    }

    @Test("dispose ends the subscription and the cell lets go of the binding")
    @MainActor
    func disposeDetaches() async {
      await drainMainQueue()
      let cell = StateCell(0)
      let subject = PublishSubject<Int>()
      let binding = subject.bind(to: cell)
      #expect(cell.observers.count == 1)
      #expect(subject.hasObservers)
      binding.dispose()
      #expect(!subject.hasObservers)
      await drainMainQueue()
      #expect(cell.observers.count == 0)
      subject.onNext(1)
      #expect(cell.value == 0)
    }

    @Test("dispose drops the elements still waiting for a hop")
    @MainActor
    func disposeDropsBacklog() async {
      await drainMainQueue()
      let cell = StateCell(0)
      let subject = PublishSubject<Int>()
      let binding = subject.bind(to: cell)
      DispatchQueue.global().sync { subject.onNext(1) }
      binding.dispose()
      await drainMainQueue()
      #expect(cell.value == 0)
    }

    @Test("completion detaches the binding from the cell")
    @MainActor
    func completionDetaches() async {
      await drainMainQueue()
      let cell = StateCell(0)
      let binding = Observable.just(5).bind(to: cell)
      #expect(cell.value == 5)
      await drainMainQueue()
      #expect(cell.observers.count == 0)
      let subject = PublishSubject<Int>()
      let second = subject.bind(to: cell)
      subject.onNext(6)
      subject.onCompleted()
      await drainMainQueue()
      #expect(cell.value == 6)
      #expect(cell.observers.count == 0)
      #expect(!subject.hasObservers)
      withExtendedLifetime((binding, second)) {}
    }

    @Test("a source that emits then completes off the main queue still writes its elements")
    @MainActor
    func completionOffMainKeepsBacklog() async {
      await drainMainQueue()
      let cell = StateCell(0)
      // The main queue waits in `sync`: the element is still waiting for its hop when the
      // completion arrives.
      let binding = DispatchQueue.global().sync { Observable.just(5).bind(to: cell) }
      await drainMainQueue()
      #expect(cell.value == 5, "Observable.just(5) bound from a background thread")
      let subject = PublishSubject<Int>()
      let second = subject.bind(to: cell)
      DispatchQueue.global().sync {
        subject.onNext(6)
        subject.onCompleted()
      }
      await drainMainQueue()
      #expect(cell.value == 6, "onNext(6) then onCompleted() on a background thread")
      #expect(cell.observers.count == 0)
      withExtendedLifetime((binding, second)) {}
    }

    @Test("an error reaching bind(to: cell) stops the program")
    func errorStopsProgram() async {
      await #expect(processExitsWith: .failure) {
        await MainActor.run {
          let cell = StateCell(0)
          _ = Observable<Int>.error(TraitError(1)).bind(to: cell)
        }
      }
      await #expect(processExitsWith: .failure) {
        let subject = PublishSubject<Int>()
        let cell = StateCell(0)
        let binding = subject.bind(to: cell)
        subject.onError(TraitError(2))
        withExtendedLifetime((binding, cell)) {}
      }
    }

    @Test("the message of a binding error names the binding's call site")
    func errorNamesCallSite() async {
      let result = await #expect(
        processExitsWith: .failure, observing: [\.standardErrorContent]
      ) {
        await MainActor.run {
          let cell = StateCell(0)
          _ = Observable<Int>.error(TraitError(1)).bind(to: cell)
        }
      }
      let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      #expect(output.contains("binding error"))
      #expect(output.contains("StreamsTests/StateBindingTests.swift:"), "stderr: \(output)")
      let explicit = await #expect(
        processExitsWith: .failure, observing: [\.standardErrorContent]
      ) {
        let cell = StateCell(0)
        _ = Observable<Int>.error(TraitError(3))
          .bind(to: cell, file: "Screen/ViewModel.swift", line: 42)
      }
      let explicitOutput = String(
        decoding: explicit?.standardErrorContent ?? [], as: UTF8.self)
      #expect(explicitOutput.contains("Screen/ViewModel.swift:42"), "stderr: \(explicitOutput)")
    }
  }
}

extension MainThreadDeliveryTests {
  @Suite("State binding stress")
  struct StateBindingStressTests {
    static let threads = 4
    static let perThread = 2000

    /// Binds each subject to `cell` on a thread of its own and emits `perThread` tagged
    /// elements through it; every seventh element is emitted on the main queue (behind a backlog
    /// of the same binding or not).
    private static func emit(into cell: StateCell<Tagged>, from subjects: [PublishSubject<Tagged>])
      async
    {
      await Task.detached { @Sendable in
        DispatchQueue.concurrentPerform(iterations: subjects.count) { thread in
          let subject = subjects[thread]
          let binding = subject.bind(to: cell)
          for index in 0..<perThread {
            let value = Tagged(thread: thread, index: index)
            if index % 7 == 3 {
              DispatchQueue.main.sync { subject.onNext(value) }
            } else {
              subject.onNext(value)
            }
          }
          withExtendedLifetime(binding) {}
        }
      }.value
    }

    @Test("threads emitting into one cell through their own bindings")
    @MainActor
    func concurrentBindings() async {
      await drainMainQueue()
      let threads = Self.threads
      let perThread = Self.perThread
      var cell: StateCell<Tagged>? = StateCell(Tagged(thread: -1, index: -1))
      weak let weakCell = cell
      var changes: [Tagged] = []
      cell!.onChange { value in
        dispatchPrecondition(condition: .onQueue(.main))
        changes.append(value)
      }
      let stream = cell!.values
      let reader = Task { @MainActor in
        var received: [Tagged] = []
        for await value in stream { received.append(value) }
        return received
      }
      let subjects = (0..<threads).map { _ in PublishSubject<Tagged>() }
      await Self.emit(into: cell!, from: subjects)
      await drainMainQueue()
      let final = cell!.value
      cell = nil
      #expect(weakCell == nil)
      // The reader's sequence ends with the cell; were the cell kept alive, it would wait forever.
      if weakCell != nil { reader.cancel() }
      let read = await reader.value

      #expect(changes.count == threads * perThread)
      #expect(Set(changes.map { $0.thread * perThread + $0.index }).count == changes.count)
      for thread in 0..<threads {
        let indices = changes.filter { $0.thread == thread }.map(\.index)
        #expect(indices == Array(0..<perThread), "thread \(thread)'s elements, in order")
      }
      #expect(read.first == Tagged(thread: -1, index: -1))
      #expect(Array(read.dropFirst()) == changes)
      #expect(final == changes.last)
      #expect(final == read.last)
      for subject in subjects {
        #expect(!subject.hasObservers, "the cell's end ended every binding")
      }
    }
  }
}
