import Dispatch
import Foundation
import Streams
import Synchronization
import Testing

/// Records what one subscription receives from many threads and checks the contract: the grammar
/// `next* (error | completed)?` and no two calls at once (an atomic in-flight counter).
final class ContractRecorder<Element: Sendable>: Sendable {
  private struct State {
    var elements: [Element] = []
    var terminal: String?
    var violations: [String] = []
  }

  private let state = Locked(State())
  private let inFlight = Atomic<Int>(0)
  private let overlaps = Atomic<Int>(0)

  /// The observer to subscribe.
  func on(_ event: Event<Element>) {
    if inFlight.add(1, ordering: .sequentiallyConsistent).newValue != 1 {
      overlaps.add(1, ordering: .sequentiallyConsistent)
    }
    state.withLock { state in
      if state.terminal != nil { state.violations.append("\(event) after a terminal event") }
      switch event {
      case .next(let element): state.elements.append(element)
      case .error(let error): state.terminal = "error(\(error))"
      case .completed: state.terminal = "completed"
      }
    }
    // Stay in the observer a little, so that a concurrent call would overlap.
    var spin = 0
    for step in 0..<64 { spin &+= step }
    withExtendedLifetime(spin) {}
    inFlight.subtract(1, ordering: .sequentiallyConsistent)
  }

  var elements: [Element] { state.withLock { $0.elements } }
  var terminal: String? { state.withLock { $0.terminal } }
  var violations: [String] { state.withLock { $0.violations } }
  var overlapCount: Int { overlaps.load(ordering: .sequentiallyConsistent) }
}

/// Runs `body(index)` on `count` new threads at once and waits for all of them. (Dedicated
/// threads, not Dispatch's pool, which on Linux may not run more tasks than there are cores.)
/// Each thread runs with what the caller bound (``TestBinding``).
func runOnThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
  let binding = TestBinding.here
  let group = DispatchGroup()
  let start = DispatchSemaphore(value: 0)
  for index in 0..<count {
    group.enter()
    let thread = Thread {
      start.wait()
      binding.run { body(index) }
      group.leave()
    }
    thread.start()
  }
  for _ in 0..<count { start.signal() }
  group.wait()
}

@Suite("MultiSource Stress", .serialized)
struct MultiSourceStressTests {
  private let perThread = 2000

  @Test("merge: four threads emitting at once, serial delivery, nothing lost or leaked")
  func merge() {
    let scope = Resources.Scope()
    scope.run {
      let subjects = (0..<4).map { _ in PublishSubject<Int>() }
      let recorder = ContractRecorder<Int>()
      let subscription = Observable.merge(subjects.map { $0.asObservable() })
        .subscribe(recorder.on)
      let perThread = perThread
      runOnThreads(subjects.count) { index in
        for value in 0..<perThread { subjects[index].onNext(index * perThread + value) }
        subjects[index].onCompleted()
      }
      #expect(recorder.elements.sorted() == Array(0..<(4 * perThread)))
      #expect(recorder.terminal == "completed")
      #expect(recorder.violations == [])
      #expect(recorder.overlapCount == 0)
      subscription.dispose()
    }
    #expect(released(scope))
  }

  @Test("flatMap: inner subjects emitting from several threads")
  func flatMap() {
    let scope = Resources.Scope()
    scope.run {
      let inners = (0..<4).map { _ in PublishSubject<Int>() }
      let outer = PublishSubject<Int>()
      let recorder = ContractRecorder<Int>()
      let subscription = outer.flatMap { inners[$0] }.subscribe(recorder.on)
      for index in inners.indices { outer.onNext(index) }
      outer.onCompleted()
      let perThread = perThread
      runOnThreads(inners.count) { index in
        for value in 0..<perThread { inners[index].onNext(value) }
        inners[index].onCompleted()
      }
      #expect(recorder.elements.count == 4 * perThread)
      #expect(recorder.terminal == "completed")
      #expect(recorder.violations == [])
      #expect(recorder.overlapCount == 0)
      subscription.dispose()
    }
    #expect(released(scope))
  }

  @Test(
    "flatMap: inner justs, delivered without subscribing, while inner subjects emit on other threads"
  )
  func flatMapJust() {
    let scope = Resources.Scope()
    scope.run {
      let inners = (0..<3).map { _ in PublishSubject<Int>() }
      let outer = PublishSubject<Int>()
      let recorder = ContractRecorder<Int>()
      let subscription = outer.flatMap { value in
        value < 0 ? Observable.just(value) : inners[value].asObservable()
      }.subscribe(recorder.on)
      for index in inners.indices { outer.onNext(index) }
      let perThread = perThread
      runOnThreads(inners.count + 1) { index in
        if index == inners.count {
          for value in 0..<perThread { outer.onNext(-1 - value) }
          outer.onCompleted()
        } else {
          for value in 0..<perThread { inners[index].onNext(value) }
          inners[index].onCompleted()
        }
      }
      #expect(recorder.elements.count == 4 * perThread)
      #expect(recorder.elements.filter { $0 < 0 } == (0..<perThread).map { -1 - $0 })
      #expect(recorder.terminal == "completed")
      #expect(recorder.violations == [])
      #expect(recorder.overlapCount == 0)
      subscription.dispose()
    }
    #expect(released(scope))
  }

  @Test("combineLatest: three threads, serial selector and delivery, last combination wins")
  func combineLatest() {
    let scope = Resources.Scope()
    scope.run {
      let subjects = (0..<3).map { _ in PublishSubject<Int>() }
      let recorder = ContractRecorder<Int>()
      let selecting = Atomic<Int>(0)
      let selectorOverlaps = Atomic<Int>(0)
      let subscription = Observable.combineLatest(subjects[0], subjects[1], subjects[2]) {
        a, b, c -> Int in
        if selecting.add(1, ordering: .sequentiallyConsistent).newValue != 1 {
          selectorOverlaps.add(1, ordering: .sequentiallyConsistent)
        }
        defer { selecting.subtract(1, ordering: .sequentiallyConsistent) }
        return a + b + c
      }.subscribe(recorder.on)
      let perThread = perThread
      runOnThreads(subjects.count) { index in
        for value in 0..<perThread { subjects[index].onNext(value) }
        subjects[index].onCompleted()
      }
      #expect(recorder.elements.last == 3 * (perThread - 1))
      #expect(recorder.terminal == "completed")
      #expect(recorder.violations == [])
      #expect(recorder.overlapCount == 0)
      #expect(selectorOverlaps.load(ordering: .sequentiallyConsistent) == 0)
      subscription.dispose()
    }
    #expect(released(scope))
  }

  @Test("combineLatest of two: two threads, each combination newer than the one before")
  func combineLatestTwo() {
    let scope = Resources.Scope()
    scope.run {
      let a = PublishSubject<Int>()
      let b = PublishSubject<Int>()
      let recorder = ContractRecorder<Pair>()
      let subscription = Observable.combineLatest(a, b) { Pair(first: $0, second: $1) }
        .subscribe(recorder.on)
      let perThread = perThread
      runOnThreads(2) { index in
        let subject = index == 0 ? a : b
        for value in 0..<perThread { subject.onNext(value) }
        subject.onCompleted()
      }
      let pairs = recorder.elements
      // Delivered in the order the state machine accepted the elements: neither side goes back.
      let ordered = Swift.zip(pairs, pairs.dropFirst()).allSatisfy { earlier, later in
        earlier.first <= later.first && earlier.second <= later.second
      }
      #expect(ordered)
      #expect(pairs.last == Pair(first: perThread - 1, second: perThread - 1))
      #expect(recorder.terminal == "completed")
      #expect(recorder.violations == [])
      #expect(recorder.overlapCount == 0)
      subscription.dispose()
    }
    #expect(released(scope))
  }

  @Test("zip of two: two threads, every element paired in order")
  func zipTwo() {
    let scope = Resources.Scope()
    scope.run {
      let a = PublishSubject<Int>()
      let b = PublishSubject<Int>()
      let recorder = ContractRecorder<Pair>()
      let subscription = Observable.zip(a, b) { Pair(first: $0, second: $1) }
        .subscribe(recorder.on)
      let perThread = perThread
      runOnThreads(2) { index in
        let subject = index == 0 ? a : b
        for value in 0..<perThread { subject.onNext(value) }
        subject.onCompleted()
      }
      #expect(recorder.elements == (0..<perThread).map { Pair(first: $0, second: $0) })
      #expect(recorder.terminal == "completed")
      #expect(recorder.violations == [])
      #expect(recorder.overlapCount == 0)
      subscription.dispose()
    }
    #expect(released(scope))
  }

  @Test("zip: three threads, every element paired in order")
  func zip() {
    let scope = Resources.Scope()
    scope.run {
      let subjects = (0..<3).map { _ in PublishSubject<Int>() }
      let recorder = ContractRecorder<[Int]>()
      let subscription = Observable.zip(subjects.map { $0.asObservable() })
        .subscribe(recorder.on)
      let perThread = perThread
      runOnThreads(subjects.count) { index in
        for value in 0..<perThread { subjects[index].onNext(value) }
        subjects[index].onCompleted()
      }
      #expect(recorder.elements == (0..<perThread).map { [$0, $0, $0] })
      #expect(recorder.terminal == "completed")
      #expect(recorder.violations == [])
      #expect(recorder.overlapCount == 0)
      subscription.dispose()
    }
    #expect(released(scope))
  }

  @Test("flatMapLatest: switching on one thread while inner sequences emit on others")
  func flatMapLatest() {
    let scope = Resources.Scope()
    scope.run {
      let inners = (0..<3).map { _ in PublishSubject<Int>() }
      let outer = PublishSubject<Int>()
      let recorder = ContractRecorder<Int>()
      let subscription = outer.flatMapLatest { inners[$0] }.subscribe(recorder.on)
      let perThread = perThread
      runOnThreads(inners.count + 1) { index in
        if index == inners.count {
          for round in 0..<300 { outer.onNext(round % inners.count) }
          outer.onCompleted()
        } else {
          for value in 0..<perThread { inners[index].onNext(value) }
        }
      }
      for inner in inners { inner.onCompleted() }
      #expect(recorder.terminal == "completed")
      #expect(recorder.violations == [])
      #expect(recorder.overlapCount == 0)
      subscription.dispose()
    }
    #expect(released(scope))
  }

  @Test("flatMapLatest: switching between inner justs and inner subjects while those emit")
  func flatMapLatestJust() {
    let scope = Resources.Scope()
    scope.run {
      let inners = (0..<3).map { _ in PublishSubject<Int>() }
      let outer = PublishSubject<Int>()
      let recorder = ContractRecorder<Int>()
      let subscription = outer.flatMapLatest { value in
        value < 0 ? Observable.just(value) : inners[value].asObservable()
      }.subscribe(recorder.on)
      let perThread = perThread
      runOnThreads(inners.count + 1) { index in
        if index == inners.count {
          for round in 0..<300 {
            outer.onNext(round.isMultiple(of: 2) ? -1 - round : (round / 2) % inners.count)
          }
          outer.onNext(-1000)
          outer.onCompleted()
        } else {
          for value in 0..<perThread { inners[index].onNext(value) }
        }
      }
      #expect(recorder.elements.filter { $0 < 0 } == (0..<150).map { -1 - 2 * $0 } + [-1000])
      #expect(recorder.elements.last == -1000)
      #expect(recorder.terminal == "completed")
      #expect(recorder.violations == [])
      #expect(recorder.overlapCount == 0)
      subscription.dispose()
      for inner in inners { #expect(!inner.hasObservers) }
    }
    #expect(released(scope))
  }

  @Test("subscribing and disposing merge, zip and combineLatest while sources emit, no leaks")
  func subscribeDisposeRace() {
    let scope = Resources.Scope()
    scope.run {
      let a = PublishSubject<Int>()
      let b = PublishSubject<Int>()
      let stop = Atomic<Bool>(false)
      let perThread = perThread
      runOnThreads(4) { index in
        switch index {
        case 0, 1:
          let subject = index == 0 ? a : b
          var value = 0
          while !stop.load(ordering: .sequentiallyConsistent) {
            subject.onNext(value)
            value &+= 1
          }
        default:
          for round in 0..<(perThread / 4) {
            let recorder = ContractRecorder<Int>()
            let subscription: any Disposable
            switch round % 3 {
            case 0:
              subscription = Observable.merge(a.asObservable(), b.asObservable())
                .subscribe(recorder.on)
            case 1: subscription = Observable.zip(a, b) { $0 &+ $1 }.subscribe(recorder.on)
            default:
              subscription = Observable.combineLatest(a, b) { $0 &+ $1 }.subscribe(recorder.on)
            }
            subscription.dispose()
            if !recorder.violations.isEmpty || recorder.overlapCount != 0 {
              Issue.record("contract broken: \(recorder.violations)")
            }
          }
          if index == 3 { stop.store(true, ordering: .sequentiallyConsistent) }
        }
      }
      #expect(!a.hasObservers)
      #expect(!b.hasObservers)
    }
    #expect(released(scope))
  }
}

/// Two combined elements, comparable as a whole.
struct Pair: Equatable, Sendable {
  var first: Int
  var second: Int
}
