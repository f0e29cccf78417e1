import Streams
import StreamsTest
import Testing

@Suite("Infallible bind")
struct InfallibleBindTests {
  @Test("bind(to:) observers, optional observers, closures")
  func bindObservers() {
    let subject = ReplaySubject<Int>.createUnbounded()
    let optional = ReplaySubject<Int?>.createUnbounded()
    _ = Infallible.of(1, 2).bind(to: subject)
    _ = Infallible.of(3).bind(to: optional)
    var subjectEvents: [Event<Int>] = []
    var optionalEvents: [Event<Int?>] = []
    _ = subject.subscribe { subjectEvents.append($0) }
    _ = optional.subscribe { optionalEvents.append($0) }
    #expect(subjectEvents == [.next(1), .next(2), .completed])
    #expect(optionalEvents == [.next(3), .completed])
    var values: [Int] = []
    _ = Infallible.of(4).bind(onNext: { values.append($0) })
    let count = Infallible.of(5, 6).bind(to: { source in
      var count = 0
      _ = source.subscribe(onNext: { _ in count += 1 })
      return count
    })
    #expect(values == [4])
    #expect(count == 2)
  }

  @Test("bind(to:) relays ignores completion")
  func bindRelays() {
    let publish = PublishRelay<Int>()
    let behavior = BehaviorRelay(value: 0)
    let replay = ReplayRelay<Int>.create(bufferSize: 3)
    let optionalBehavior = BehaviorRelay<Int?>(value: nil)
    let optionalReplay = ReplayRelay<Int?>.create(bufferSize: 1)
    let optionalPublish = PublishRelay<Int?>()
    var published: [Int] = []
    var publishedOptional: [Int?] = []
    _ = publish.subscribe(onNext: { published.append($0) })
    _ = optionalPublish.subscribe(onNext: { publishedOptional.append($0) })
    _ = Infallible.of(1, 2).bind(to: publish)
    _ = Infallible.of(3).bind(to: behavior)
    _ = Infallible.of(4, 5).bind(to: replay)
    _ = Infallible.of(6).bind(to: optionalBehavior)
    _ = Infallible.of(7).bind(to: optionalReplay)
    _ = Infallible.of(8).bind(to: optionalPublish)
    var replayed: [Int] = []
    _ = replay.subscribe(onNext: { replayed.append($0) })
    var replayedOptional: [Int?] = []
    _ = optionalReplay.subscribe(onNext: { replayedOptional.append($0) })
    #expect(published == [1, 2])
    #expect(behavior.value == 3)
    #expect(replayed == [4, 5])
    #expect(optionalBehavior.value == 6)
    #expect(replayedOptional == [7])
    #expect(publishedOptional == [8])
  }
}

@Suite("Infallible bind(with:) and curried bind")
struct InfallibleBindWithTests {
  @Test("bind(with:onNext:) passes the object and stops once it is gone")
  func bindWith() {
    final class Owner { var values: [Int] = [] }
    let relay = PublishRelay<Int>()
    var owner: Owner? = Owner()
    weak let weakOwner = owner
    var calls = 0
    _ = relay.asInfallible().bind(with: owner!) { owner, value in
      owner.values.append(value)
      calls += 1
    }
    relay.accept(1)
    #expect(owner?.values == [1])
    owner = nil
    #expect(weakOwner == nil)
    relay.accept(2)
    #expect(calls == 1)
  }

  @Test("bind(to:curriedArgument:) passes the sequence, then the argument")
  func bindCurried() {
    func collect(_ source: Infallible<Int>) -> (Int) -> [Int] {
      { factor in
        var values: [Int] = []
        _ = source.subscribe(onNext: { values.append($0 * factor) })
        return values
      }
    }
    #expect(Infallible.of(1, 2).bind(to: collect, curriedArgument: 3) == [3, 6])
  }
}
