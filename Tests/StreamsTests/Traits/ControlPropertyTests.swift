import Dispatch
import Streams
import StreamsTest
import Testing

private struct ControlError: Error {}

extension MainThreadDeliveryTests {
  @Suite("ControlProperty")
  struct ControlPropertyTests {
    @Test("values come from the values sequence; what is bound goes to the value sink")
    @MainActor
    func valuesAndSink() async {
      await drainMainQueue()
      let scheduler = TestScheduler(initialClock: 0)
      let xs = scheduler.createHotObservable([.next(210, "a"), .next(220, "b"), .completed(230)])
      let sink = scheduler.createObserver(String.self)
      let property = ControlProperty(values: xs, valueSink: sink)
      let res = scheduler.start { property.asControlProperty() }
      #expect(res.events == [.next(210, "a"), .next(220, "b"), .completed(230)])
      #expect(xs.subscriptions == [Subscription(200, 230)])
      let inputs = scheduler.createColdObservable([.next(10, "x"), .completed(20)])
      scheduler.scheduleAt(1100) { _ = inputs.bind(to: property) }
      scheduler.start()
      #expect(sink.events == [.next(1110, "x"), .completed(1120)])
    }

    @Test("changed skips the current value")
    @MainActor
    func changed() async {
      await drainMainQueue()
      let relay = BehaviorRelay(value: 1)
      let property = ControlProperty(values: relay.asObservable(), valueSink: AnyObserver { _ in })
      var values: [Int] = []
      var changes: [Int] = []
      let first = property.subscribe(onNext: { values.append($0) })
      let second = property.changed.subscribe(onNext: { changes.append($0) })
      relay.accept(2)
      #expect(values == [1, 2])
      #expect(changes == [2])
      first.dispose()
      second.dispose()
    }

    @Test("orEmpty reads nil as an empty string and writes through")
    @MainActor
    func orEmpty() async {
      await drainMainQueue()
      final class Field { var text: String? }
      let field = Field()
      let edits = BehaviorSubject<String?>(value: nil)
      let text = ControlProperty(
        values: edits,
        valueSink: Binder(field, scheduler: CurrentThreadScheduler.instance) {
          $0.text = $1
        })
      var values: [String] = []
      let subscription = text.orEmpty.subscribe(onNext: { values.append($0) })
      edits.onNext("a")
      edits.onNext(nil)
      #expect(values == ["", "a", ""])
      text.orEmpty.onNext("typed")
      #expect(field.text == "typed")
      subscription.dispose()
    }

    @Test("asDriver delivers on the sharing scheduler")
    @MainActor
    func asDriver() async {
      await drainMainQueue()
      let scheduler = TestScheduler(initialClock: 0)
      SharingScheduler.mock(scheduler: scheduler) {
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
        let property = ControlProperty(values: xs, valueSink: AnyObserver { _ in })
        let res = scheduler.start(disposed: 300) { property.asDriver() }
        #expect(res.events == [.next(211, 1), .next(221, 2)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
      }
    }

    @Test("a subscription that ends lets go of the observer")
    @MainActor
    func lifetime() async {
      await drainMainQueue()
      final class Token { var count = 0 }
      for completes in [false, true] {
        let subject = PublishSubject<Int>()
        weak var weakToken: Token?
        var kept: (any Disposable)?
        do {
          let token = Token()
          weakToken = token
          let property = ControlProperty(values: subject, valueSink: AnyObserver { _ in })
          kept = property.subscribe(onNext: { _ in token.count += 1 })
          subject.onNext(1)
          #expect(token.count == 1)
        }
        if completes { subject.onCompleted() } else { kept?.dispose() }
        #expect(weakToken == nil)
        withExtendedLifetime(kept) {}
      }
    }

    @Test("binding an error to a ControlProperty stops the program with a message")
    func errorTraps() async {
      let result = await #expect(
        processExitsWith: .failure, observing: [\.standardErrorContent]
      ) {
        let property = ControlProperty(
          values: Observable<Int>.never(), valueSink: AnyObserver { _ in })
        property.onError(ControlError())
      }
      let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      #expect(output.contains("binding error"), "stderr: \(output)")
    }
  }
}
