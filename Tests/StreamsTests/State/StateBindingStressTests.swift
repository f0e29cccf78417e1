import Dispatch
import Streams
import Testing

@testable import StreamsState

/// A value tagged with the thread that emitted it, for the stress test.
private struct Tagged: Equatable, Sendable {
  let thread: Int
  let index: Int
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
