import Dispatch
import Observation
import Streams
import Testing

@testable import StreamsState

/// An object whose release the lifetime tests watch with a weak reference.
private final class Token: Sendable {}

/// Disposables that the subscribers' closures dispose.
@MainActor
private final class DisposableBox {
  var disposables: [any Disposable] = []
}

extension MainThreadDeliveryTests {
  @Suite("StateCell as an observable")
  struct StateCellObservableTests {
    @Test("asObservable sends the current value, then each stored value after the store")
    @MainActor
    func currentThenStored() async {
      await drainMainQueue()
      let cell = StateCell(1)
      var received: [Int] = []
      var stored: [Int] = []
      let subscription = cell.asObservable().subscribe(onNext: { value in
        dispatchPrecondition(condition: .onQueue(.main))
        received.append(value)
        stored.append(MainActor.assumeIsolated { cell.value })
      })
      #expect(received == [1])
      cell.value = 2
      cell.value = 2
      cell.value = 3
      #expect(received == [1, 2, 3])
      #expect(stored == received, "inside onNext the cell already holds the element")
      subscription.dispose()
    }

    /// A stage over a cell hands the cell's subscription on as the caller's disposable, as over
    /// a subject: disposing it from inside the subscriber stops the stage there.
    @Test("take and scan over a cell stop when the subscriber disposes the subscription")
    @MainActor
    func stageStopsOnDisposal() async {
      await drainMainQueue()
      let cell = StateCell(1)
      let box = DisposableBox()
      var events: [String] = []
      box.disposables.append(
        cell.asObservable().take(2).subscribe(
          onNext: { value in
            events.append("next(\(value))")
            if value == 2 { MainActor.assumeIsolated { box.disposables[0].dispose() } }
          }, onCompleted: { events.append("completed") }))
      cell.value = 2
      #expect(events == ["next(1)", "next(2)"], "no completion after the disposal")

      var sums: [Int] = []
      box.disposables.append(
        cell.asObservable().scan(0) { sum, value in
          if value == 3 { MainActor.assumeIsolated { box.disposables[1].dispose() } }
          return sum + value
        }.subscribe(onNext: { sums.append($0) }))
      cell.value = 3
      #expect(sums == [2], "the step disposed the subscription: its element is not forwarded")
    }

    @Test("asInfallible and asDriver send the current value, then each stored value")
    @MainActor
    func infallibleAndDriver() async {
      await drainMainQueue()
      let cell = StateCell("a")
      var infallible: [String] = []
      var driven: [String] = []
      let first = cell.asInfallible().subscribe(onNext: { infallible.append($0) })
      let second = cell.asDriver().drive(onNext: { value in
        MainActor.assertIsolated()
        driven.append(value)
      })
      #expect(infallible == ["a"])
      #expect(driven == ["a"])
      cell.value = "b"
      #expect(infallible == ["a", "b"])
      #expect(driven == ["a", "b"])
      first.dispose()
      second.dispose()
      cell.value = "c"
      #expect(infallible == ["a", "b"])
      #expect(driven == ["a", "b"])
    }

    @Test("a cell's driver drives another cell")
    @MainActor
    func cellToCell() async {
      await drainMainQueue()
      let source = StateCell(1)
      let target = StateCell(0)
      let binding = source.asDriver().map { $0 * 10 }.drive(target)
      #expect(target.value == 10)
      source.value = 2
      #expect(target.value == 20)
      binding.dispose()
      source.value = 3
      #expect(target.value == 20)
    }

    @Test("a subscription made off the main queue starts on the main queue")
    @MainActor
    func offMainSubscription() async {
      await drainMainQueue()
      let cell = StateCell(5)
      let log = TraitLog()
      // The main queue waits in `sync`: the subscription cannot start before `sync` returns.
      let subscription = DispatchQueue.global().sync {
        cell.asObservable().subscribe(onNext: { value in
          dispatchPrecondition(condition: .onQueue(.main))
          log.append("\(value), on main: \(BridgeMainQueue.isCurrent)")
        })
      }
      #expect(log.entries == [])
      await drainMainQueue()
      #expect(log.entries == ["5, on main: true"])
      cell.value = 6
      #expect(log.entries == ["5, on main: true", "6, on main: true"])
      subscription.dispose()
    }

    @Test("the subscription completes when the cell is deinitialized")
    @MainActor
    func completesWithCell() async {
      await drainMainQueue()
      var cell: StateCell<Int>? = StateCell(0)
      weak let weakCell = cell
      var log: [String] = []
      let subscription = cell!.asObservable().subscribe(
        onNext: { log.append("\($0)") }, onCompleted: { log.append("completed") },
        onDisposed: { log.append("disposed") })
      cell!.value = 1
      cell = nil
      #expect(weakCell == nil, "a subscription does not hold the cell")
      await drainMainQueue()
      #expect(log == ["0", "1", "completed", "disposed"])
      withExtendedLifetime(subscription) {}
    }

    @Test("a subscription made off the main queue completes when the cell goes first")
    @MainActor
    func completesBeforeStart() async {
      await drainMainQueue()
      var cell: StateCell<Int>? = StateCell(0)
      let log = TraitLog()
      let subscription = DispatchQueue.global().sync {
        cell!.asObservable().subscribe(
          onNext: { log.append("\($0)") }, onCompleted: { log.append("completed") })
      }
      cell = nil
      await drainMainQueue()
      // The subscription's start holds the cell until it has run: the current value, then the
      // end of the cell.
      #expect(log.entries == ["0", "completed"])
      withExtendedLifetime(subscription) {}
    }

    @Test("dispose stops delivery, releases the observer and the cell lets go of it")
    @MainActor
    func disposeReleases() async {
      await drainMainQueue()
      let cell = StateCell(0)
      weak var weakToken: Token?
      var received: [Int] = []
      let subscription: any Disposable
      do {
        let token = Token()
        weakToken = token
        subscription = cell.asObservable().subscribe(onNext: { value in
          withExtendedLifetime(token) {}
          received.append(value)
        })
      }
      cell.value = 1
      #expect(cell.observers.count == 1)
      subscription.dispose()
      #expect(weakToken == nil, "the observer is released while the disposable is kept")
      cell.value = 2
      #expect(received == [0, 1])
      await drainMainQueue()
      #expect(cell.observers.count == 0)
      withExtendedLifetime(subscription) {}
    }

    @Test("dispose from another thread stops delivery and detaches from the cell")
    @MainActor
    func disposeOffMain() async {
      await drainMainQueue()
      let cell = StateCell(0)
      var received: [Int] = []
      let subscription = cell.asObservable().subscribe(onNext: { received.append($0) })
      await Task.detached { @Sendable in subscription.dispose() }.value
      cell.value = 1
      await drainMainQueue()
      cell.value = 2
      #expect(received == [0])
      #expect(cell.observers.count == 0)
    }

    @Test("a subscriber that writes the cell is not re-entered and sees every value in order")
    @MainActor
    func reentrantWrites() async {
      await drainMainQueue()
      let cell = StateCell(0)
      var depth = 0
      var maxDepth = 0
      var writer: [Int] = []
      var other: [Int] = []
      let first = cell.asObservable().subscribe(onNext: { value in
        depth += 1
        maxDepth = max(maxDepth, depth)
        writer.append(value)
        if value < 3 || (10...12).contains(value) {
          MainActor.assumeIsolated { cell.value = value + 1 }
        }
        depth -= 1
      })
      let second = cell.asObservable().subscribe(onNext: { other.append($0) })
      // The writes made while the current value was being sent.
      #expect(writer == [0, 1, 2, 3])
      #expect(cell.value == 3)
      cell.value = 10
      #expect(writer == [0, 1, 2, 3, 10, 11, 12, 13])
      #expect(other == [3, 10, 11, 12, 13])
      #expect(maxDepth == 1)
      #expect(cell.value == 13)
      first.dispose()
      second.dispose()
    }

    @Test("subscribers that dispose themselves during a delivery: the others keep their order")
    @MainActor
    func disposeDuringDelivery() async {
      await drainMainQueue()
      let cell = StateCell(0)
      var first: [Int] = []
      var last: [Int] = []
      var transient: [Int] = []
      let firstSubscription = cell.asObservable().subscribe(onNext: { first.append($0) })
      // More than the cell compacts away at once (8), all registered between two survivors.
      let box = DisposableBox()
      for index in 0..<20 {
        box.disposables.append(
          cell.asObservable().subscribe(onNext: { value in
            transient.append(value)
            if value == 1 { MainActor.assumeIsolated { box.disposables[index].dispose() } }
          }))
      }
      let lastSubscription = cell.asObservable().subscribe(onNext: { last.append($0) })
      cell.value = 1
      #expect(transient == Array(repeating: 0, count: 20) + Array(repeating: 1, count: 20))
      cell.value = 2
      #expect(transient.count == 40)
      #expect(first == [0, 1, 2])
      #expect(last == [0, 1, 2])
      #expect(cell.observers.count == 2)
      // After the cell compacted its registrations, each disposal still removes its own.
      firstSubscription.dispose()
      cell.value = 3
      #expect(first == [0, 1, 2])
      #expect(last == [0, 1, 2, 3])
      lastSubscription.dispose()
      cell.value = 4
      #expect(last == [0, 1, 2, 3])
      #expect(cell.observers.count == 0)
    }

    @Test("subscribing inside Observation tracking does not make the tracker depend on the cell")
    @MainActor
    func subscribeUntracked() async {
      await drainMainQueue()
      let cell = StateCell(0)
      let invalidations = TraitLog()
      var received: [Int] = []
      let subscription = withObservationTracking {
        cell.asObservable().subscribe(onNext: { received.append($0) })
      } onChange: {
        invalidations.append("invalidated")
      }
      cell.value = 1
      #expect(received == [0, 1])
      #expect(invalidations.entries.isEmpty)
      subscription.dispose()
    }

    @Test("a subscription whose disposable is dropped keeps receiving")
    @MainActor
    func droppedDisposable() async {
      await drainMainQueue()
      let cell = StateCell(0)
      var received: [Int] = []
      _ = cell.asObservable().subscribe(onNext: { received.append($0) })
      cell.value = 1
      await drainMainQueue()
      cell.value = 2
      #expect(received == [0, 1, 2])
      #expect(cell.observers.count == 1)
    }

    @Test("Observation's willChange runs before the change, the Rx subscriber after it")
    @MainActor
    func willChangeBeforeRx() async {
      await drainMainQueue()
      let cell = StateCell(0)
      let log = TraitLog()
      let subscription = cell.asObservable().subscribe(onNext: { value in
        log.append("rx \(value)")
      })
      withObservationTracking {
        _ = cell.value
      } onChange: {
        log.append("willChange, stored \(MainActor.assumeIsolated { cell.value })")
      }
      cell.value = 1
      #expect(log.entries == ["rx 0", "willChange, stored 0", "rx 1"])
      subscription.dispose()
    }
  }
}
