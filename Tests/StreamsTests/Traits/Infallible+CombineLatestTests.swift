import Streams
import StreamsTest
import Testing

@Suite("Infallible.combineLatest")
struct InfallibleCombineLatestTests {
  @Test("two sources with a result selector")
  func two() {
    let scheduler = TestScheduler(initialClock: 0)
    let a = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(260)])
    let b = scheduler.createHotObservable([.next(220, "x"), .completed(250)])
    let res = scheduler.start {
      Infallible.combineLatest(
        a.asInfallible(onErrorJustReturn: 0), b.asInfallible(onErrorJustReturn: "")
      ) {
        "\($0)\($1)"
      }
    }
    #expect(res.events == [.next(220, "1x"), .next(230, "2x"), .completed(260)])
    #expect(a.subscriptions == [Subscription(200, 260)])
    #expect(b.subscriptions == [Subscription(200, 250)])
  }

  @Test("three to eight sources, with a result selector and as tuples")
  func arities() {
    let s = (1...8).map { Infallible.just($0) }
    var sums: [Int] = []
    _ = Infallible.combineLatest(s[0], s[1], s[2]) { $0 + $1 + $2 }.subscribe(onNext: {
      sums.append($0)
    })
    _ = Infallible.combineLatest(s[0], s[1], s[2], s[3]) { $0 + $1 + $2 + $3 }
      .subscribe(onNext: { sums.append($0) })
    _ = Infallible.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]) {
      $0 + $1 + $2 + $3 + $4 + $5 + $6 + $7
    }.subscribe(onNext: { sums.append($0) })
    #expect(sums == [6, 10, 36])

    var tuples: [String] = []
    _ = Infallible.combineLatest(s[0], Infallible.just("b")).subscribe(onNext: {
      tuples.append("\($0)")
    })
    _ = Infallible.combineLatest(s[0], s[1], s[2]).subscribe(onNext: { tuples.append("\($0)") })
    _ = Infallible.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7])
      .subscribe(onNext: { tuples.append("\($0)") })
    #expect(tuples == ["(1, \"b\")", "(1, 2, 3)", "(1, 2, 3, 4, 5, 6, 7, 8)"])
  }

  @Test("collection forms, with and without a result selector")
  func collection() {
    let scheduler = TestScheduler(initialClock: 0)
    let a = scheduler.createHotObservable([.next(210, 1), .next(230, 3), .completed(240)])
    let b = scheduler.createHotObservable([.next(220, 10), .completed(240)])
    let sources = [a, b].map { $0.asInfallible(onErrorJustReturn: 0) }
    let res = scheduler.start { Infallible.combineLatest(sources) { $0.reduce(0, +) } }
    #expect(res.events == [.next(220, 11), .next(230, 13), .completed(240)])

    let arrays = TestScheduler(initialClock: 0)
    let c = arrays.createHotObservable([.next(210, 1), .completed(240)])
    let d = arrays.createHotObservable([.next(220, 2), .completed(250)])
    let recorded = arrays.start {
      Infallible.combineLatest([c, d].map { $0.asInfallible(onErrorJustReturn: 0) })
    }
    #expect(recorded.events == [.next(220, [1, 2]), .completed(250)])
  }

  @Test("disposal disposes every source and releases the latest elements")
  func disposal() {
    final class Box {}
    weak var weakBox: Box?
    let a = PublishRelay<Box>()
    let b = PublishRelay<Int>()
    let subscription = Infallible.combineLatest(a.asInfallible(), b.asInfallible()) { box, _ in
      ObjectIdentifier(box)
    }.subscribe(onNext: { _ in })
    do {
      let box = Box()
      weakBox = box
      a.accept(box)
    }
    #expect(weakBox != nil)
    subscription.dispose()
    #expect(weakBox == nil)
  }
}
