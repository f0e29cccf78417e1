import Streams
import StreamsTest
import Testing

/// The transitions of ``TypedCombineStateMachine`` (two and three sources) and
/// ``CombineStateMachine`` (a parameter pack of four, a collection of three), through every form
/// of `combineLatest` and `zip`: sources that end from inside the observer, the completion rules,
/// disposal while combinations are queued, and what an ended combination lets go.
@Suite("CombineStateMachine")
struct CombineStateMachineTests {
  /// A value a source sends; the combinations sum them.
  final class Box {
    let value: Int
    init(_ value: Int) { self.value = value }
  }

  /// One form of the two operators, and so one of the two machines.
  enum Form: String, CaseIterable, Sendable {
    case latestTwo, latestThree, latestPack, latestCollection
    case zipTwo, zipThree, zipPack, zipCollection

    var isZip: Bool {
      switch self {
      case .latestTwo, .latestThree, .latestPack, .latestCollection: false
      case .zipTwo, .zipThree, .zipPack, .zipCollection: true
      }
    }

    /// How many sources the form combines.
    var count: Int {
      switch self {
      case .latestTwo, .zipTwo: 2
      case .latestThree, .zipThree, .latestCollection, .zipCollection: 3
      case .latestPack, .zipPack: 4
      }
    }

    /// The sum of the values of `sources` (`count` of them), combined by this form.
    func make(_ sources: [PublishSubject<Box>]) -> Observable<Int> {
      let s = sources
      switch self {
      case .latestTwo:
        return Observable.combineLatest(s[0], s[1]) { $0.value + $1.value }
      case .latestThree:
        return Observable.combineLatest(s[0], s[1], s[2]) { $0.value + $1.value + $2.value }
      case .latestPack:
        return Observable.combineLatest(s[0], s[1], s[2], s[3]) {
          $0.value + $1.value + $2.value + $3.value
        }
      case .latestCollection:
        return Observable.combineLatest(s) { $0.reduce(0) { $0 + $1.value } }
      case .zipTwo:
        return Observable.zip(s[0], s[1]) { $0.value + $1.value }
      case .zipThree:
        return Observable.zip(s[0], s[1], s[2]) { $0.value + $1.value + $2.value }
      case .zipPack:
        return Observable.zip(s[0], s[1], s[2], s[3]) {
          $0.value + $1.value + $2.value + $3.value
        }
      case .zipCollection:
        return Observable.zip(s) { $0.reduce(0) { $0 + $1.value } }
      }
    }

    /// Fresh sources for this form.
    func sources() -> [PublishSubject<Box>] {
      (0..<count).map { _ in PublishSubject<Box>() }
    }
  }

  @Test(
    "sources that complete from inside the observer end it after what they queued",
    arguments: Form.allCases)
  func reentrantCompletion(form: Form) {
    let sources = form.sources()
    let n = form.count
    var events: [Event<Int>] = []
    _ = form.make(sources).subscribe { event in
      events.append(event)
      guard event == .next(n) else { return }
      for source in sources { source.onNext(Box(2)) }
      for source in sources { source.onCompleted() }
      events.append(.next(-1))  // runs before what the sources queued is delivered
    }
    for source in sources { source.onNext(Box(1)) }
    // combineLatest emits on every element once each source has one; zip pairs the 2s once.
    let queued: [Event<Int>] = form.isZip ? [.next(2 * n)] : (n + 1...2 * n).map { .next($0) }
    #expect(events == [.next(n), .next(-1)] + queued + [.completed])
    #expect(sources.allSatisfy { !$0.hasObservers })
  }

  @Test(
    "a source that fails from inside the observer fails it after what was queued, then drops",
    arguments: Form.allCases)
  func reentrantError(form: Form) {
    let sources = form.sources()
    let n = form.count
    var events: [Event<Int>] = []
    _ = form.make(sources).subscribe { event in
      events.append(event)
      guard event == .next(n) else { return }
      // The last source is delivering: the others reach the operator at once.
      sources[0].onNext(Box(5))
      sources[0].onError(MultiTestError.first)
      sources[1].onNext(Box(7))  // after the error: dropped
      sources[1].onError(MultiTestError.second)
    }
    for source in sources { source.onNext(Box(1)) }
    // combineLatest combines the 5 with the latest others; zip has nothing to pair it with.
    let queued: [Event<Int>] = form.isZip ? [] : [.next(n + 4)]
    #expect(events == [.next(n)] + queued + [.error(MultiTestError.first)])
    #expect(sources.allSatisfy { !$0.hasObservers })
  }

  @Test(
    "combineLatest: a source completing without an element ends nothing until the others end",
    arguments: Form.allCases.filter { !$0.isZip })
  func latestCompletionWithoutElement(form: Form) {
    let sources = form.sources()
    let n = form.count
    var events: [Event<Int>] = []
    _ = form.make(sources).subscribe { events.append($0) }
    sources[0].onCompleted()
    #expect(events == [])
    #expect(sources.dropFirst().allSatisfy { $0.hasObservers })
    // Every other source but the last emits and completes: still nothing can be combined, but
    // the last one is still running.
    for source in sources[1..<n - 1] {
      source.onNext(Box(1))
      source.onCompleted()
    }
    #expect(events == [])
    #expect(sources[n - 1].hasObservers)
    // An element while every other source completed (one without an element) ends it.
    sources[n - 1].onNext(Box(1))
    #expect(events == [.completed])
    #expect(!sources[n - 1].hasObservers)
  }

  @Test(
    "combineLatest: completes once every source completed, each having emitted",
    arguments: Form.allCases.filter { !$0.isZip })
  func latestCompletesWhenAllComplete(form: Form) {
    let sources = form.sources()
    let n = form.count
    var events: [Event<Int>] = []
    _ = form.make(sources).subscribe { events.append($0) }
    for source in sources { source.onNext(Box(1)) }
    for source in sources.dropLast() { source.onCompleted() }
    #expect(events == [.next(n)])
    sources[n - 1].onNext(Box(2))  // the others completed, but each has a latest element
    #expect(events == [.next(n), .next(n + 1)])
    sources[n - 1].onCompleted()
    #expect(events == [.next(n), .next(n + 1), .completed])
  }

  @Test(
    "zip: an element that can never be paired ends the collection form, the others wait",
    arguments: Form.allCases.filter(\.isZip))
  func zipCompletion(form: Form) {
    let sources = form.sources()
    let n = form.count
    var events: [Event<Int>] = []
    _ = form.make(sources).subscribe { events.append($0) }
    for source in sources { source.onNext(Box(1)) }
    for source in sources.dropLast() { source.onCompleted() }  // with empty buffers
    #expect(events == [.next(n)])
    sources[n - 1].onNext(Box(2))  // can never be paired
    if form == .zipCollection {
      #expect(events == [.next(n), .completed])
      #expect(!sources[n - 1].hasObservers)
      return
    }
    #expect(events == [.next(n)])
    #expect(sources[n - 1].hasObservers)
    sources[n - 1].onCompleted()
    #expect(events == [.next(n), .completed])
  }

  @Test(
    "zip: a completed source's buffered elements are still paired before it ends",
    arguments: Form.allCases.filter(\.isZip))
  func zipPairsBufferOfCompletedSource(form: Form) {
    let sources = form.sources()
    let n = form.count
    var events: [Event<Int>] = []
    _ = form.make(sources).subscribe { events.append($0) }
    sources[0].onNext(Box(1))
    sources[0].onNext(Box(2))
    sources[0].onCompleted()
    for source in sources.dropFirst() { source.onNext(Box(1)) }
    for source in sources.dropFirst() { source.onNext(Box(1)) }
    #expect(events == [.next(n), .next(n + 1)])
    for source in sources.dropFirst() { source.onCompleted() }
    #expect(events == [.next(n), .next(n + 1), .completed])
  }

  @Test(
    "disposal from inside the observer drops the queued combinations and releases them",
    arguments: Form.allCases)
  func disposalMidFlight(form: Form) {
    let sources = form.sources()
    let n = form.count
    weak var weakQueued: Box?
    var events: [Event<Int>] = []
    var subscription: (any Disposable)?
    subscription = form.make(sources).subscribe { event in
      events.append(event)
      guard event == .next(n) else { return }
      do {
        let queued = Box(2)
        weakQueued = queued
        for source in sources { source.onNext(queued) }  // queued behind this delivery
      }
      #expect(weakQueued != nil)
      subscription?.dispose()
      #expect(sources.allSatisfy { !$0.hasObservers })
      sources[0].onNext(Box(3))
    }
    for source in sources { source.onNext(Box(1)) }
    #expect(events == [.next(n)])
    #expect(weakQueued == nil)
  }

  @Test(
    "an ended combination lets go of its values and its observer without being disposed",
    arguments: Form.allCases, [false, true])
  func releaseAfterEnd(form: Form, fails: Bool) {
    final class Token {}
    let sources = form.sources()
    weak var weakCombined: Box?
    weak var weakBuffered: Box?
    weak var weakToken: Token?
    var subscription: (any Disposable)?
    do {
      let token = Token()
      weakToken = token
      subscription = form.make(sources).subscribe(onNext: { _ in withExtendedLifetime(token) {} })
      let combined = Box(1)
      weakCombined = combined
      for source in sources { source.onNext(combined) }
      let buffered = Box(2)
      weakBuffered = buffered
      sources[0].onNext(buffered)  // zip: waits in a buffer; combineLatest: the latest element
    }
    #expect(weakCombined != nil || form.isZip)
    #expect(weakBuffered != nil)
    #expect(weakToken != nil)
    if fails {
      sources[1].onError(MultiTestError.first)
    } else {
      for source in sources { source.onCompleted() }
    }
    #expect(weakCombined == nil)
    #expect(weakBuffered == nil)
    #expect(weakToken == nil)
    #expect(sources.allSatisfy { !$0.hasObservers })
    withExtendedLifetime(subscription) {}
  }
}
