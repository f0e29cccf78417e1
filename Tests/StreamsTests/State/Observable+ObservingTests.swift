import Dispatch
import Streams
import StreamsState
import StreamsTrace
import Testing

/// An object whose release the lifetime tests watch with a weak reference.
private final class Token: Sendable {}

extension MainThreadDeliveryTests {
  @Suite("Observable.observing")
  struct ObservableObservingTests {
    @Test("sends the current value at once, on the main queue")
    @MainActor
    func currentValueFirst() async {
      await drainMainQueue()
      let a = StateCell(1)
      let b = StateCell(10)
      var received: [Int] = []
      let subscription = Observable.observing { a.value + b.value }.subscribe(onNext: { value in
        dispatchPrecondition(condition: .onQueue(.main))
        received.append(value)
      })
      #expect(received == [11])
      subscription.dispose()
    }

    @Test("the changes of one main-queue turn give one element, read after the change")
    @MainActor
    func oneElementPerChangeSet() async {
      await drainMainQueue()
      let a = StateCell(1)
      let b = StateCell(10)
      var received: [Int] = []
      let subscription = Observable.observing { a.value + b.value }.subscribe(onNext: {
        received.append($0)
      })
      a.value = 2
      b.value = 20
      #expect(received == [11], "nothing is read during the turn that changes the cells")
      await drainMainQueue()
      #expect(received == [11, 22])
      b.value = 30
      await drainMainQueue()
      #expect(received == [11, 22, 32], "a later turn's change gives another element")
      a.value = 3
      a.value = 4
      a.value = 5
      await drainMainQueue()
      #expect(received == [11, 22, 32, 35])
      subscription.dispose()
    }

    @Test("a change of a cell the closure did not read gives no element")
    @MainActor
    func unreadCell() async {
      await drainMainQueue()
      let flag = StateCell(false)
      let a = StateCell(1)
      let b = StateCell(2)
      var received: [Int] = []
      let subscription = Observable.observing { flag.value ? b.value : a.value }.subscribe(
        onNext: { received.append($0) })
      b.value = 3
      await drainMainQueue()
      #expect(received == [1])
      flag.value = true
      await drainMainQueue()
      #expect(received == [1, 3])
      // Now the closure reads `b`, not `a`.
      a.value = 5
      await drainMainQueue()
      #expect(received == [1, 3])
      b.value = 4
      await drainMainQueue()
      #expect(received == [1, 3, 4])
      subscription.dispose()
    }

    @Test("dispose stops the elements and releases the observer")
    @MainActor
    func disposeStops() async {
      await drainMainQueue()
      let a = StateCell(1)
      weak var weakToken: Token?
      var received: [Int] = []
      let subscription: any Disposable
      do {
        let token = Token()
        weakToken = token
        subscription = Observable.observing { a.value }.subscribe(onNext: { value in
          withExtendedLifetime(token) {}
          received.append(value)
        })
      }
      a.value = 2
      await drainMainQueue()
      #expect(received == [1, 2])
      subscription.dispose()
      #expect(weakToken == nil, "the observer is released while the disposable is kept")
      a.value = 3
      await drainMainQueue()
      a.value = 4
      await drainMainQueue()
      #expect(received == [1, 2])
      withExtendedLifetime(subscription) {}
    }

    @Test("dispose between a change and the next turn sends nothing more")
    @MainActor
    func disposeBeforeNextTurn() async {
      await drainMainQueue()
      let a = StateCell(1)
      var received: [Int] = []
      let subscription = Observable.observing { a.value }.subscribe(onNext: { received.append($0) })
      a.value = 2
      subscription.dispose()
      await drainMainQueue()
      #expect(received == [1])
    }

    @Test("a subscription made off the main queue reads on the main queue's next turn")
    @MainActor
    func offMainSubscription() async {
      await drainMainQueue()
      let a = StateCell(1)
      let log = TraitLog()
      let subscription = DispatchQueue.global().sync {
        Observable.observing { a.value }.subscribe(onNext: { value in
          dispatchPrecondition(condition: .onQueue(.main))
          log.append("\(value), on main: \(BridgeMainQueue.isCurrent)")
        })
      }
      #expect(log.entries == [])
      a.value = 2
      await drainMainQueue()
      #expect(log.entries == ["2, on main: true"])
      a.value = 3
      await drainMainQueue()
      #expect(log.entries == ["2, on main: true", "3, on main: true"])
      subscription.dispose()
    }

    @Test("a subscription whose disposable is dropped keeps going")
    @MainActor
    func droppedDisposable() async {
      await drainMainQueue()
      let a = StateCell(1)
      var received: [Int] = []
      _ = Observable.observing { a.value }.subscribe(onNext: { received.append($0) })
      a.value = 2
      await drainMainQueue()
      a.value = 3
      await drainMainQueue()
      #expect(received == [1, 2, 3])
    }

    /// A subscription whose disposable was dropped and whose `read` holds the cell weakly is held
    /// by the cell's registration alone, and goes with the cell; traced too (the node's observer
    /// must not hold the disposable that holds it, or the two would outlive the cell).
    @Test(
      "a dropped disposable and a dropped cell let go, traced or not", arguments: [false, true])
    @MainActor
    func droppedCell(traced: Bool) async {
      await drainMainQueue()
      await TestBinding(scope: nil, tracer: traced ? TraceRecorder() : nil).run {
        weak var weakToken: Token?
        weak var weakCell: StateCell<Int>?
        do {
          let a = StateCell(1)
          weakCell = a
          let token = Token()
          weakToken = token
          _ = Observable.observing { [weak a] in a?.value ?? 0 }.subscribe(onNext: { _ in
            withExtendedLifetime(token) {}
          })
        }
        await drainMainQueue()
        #expect(weakCell == nil, "the cell is released")
        #expect(weakToken == nil, "the subscriber's closure is released")
      }
    }
  }
}
