import Dispatch
import Streams
import Testing

@testable import StreamsState

/// An object whose release the lifetime tests watch with a weak reference.
private final class Token: Sendable {}

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
      #expect(output.contains("StreamsTests/StateBindingLifetimeTests.swift:"), "stderr: \(output)")
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
