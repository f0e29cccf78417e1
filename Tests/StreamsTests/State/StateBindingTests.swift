import Dispatch
import Streams
import Testing

@testable import StreamsState

/// A main-actor state type of the app's own, the target of the key-path binding.
@MainActor
private final class Header {
  var title = ""
  var count = 0
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
