import Streams
import StreamsTest
import Testing

extension MainThreadDeliveryTests {
  @Suite("SharedSequence operators")
  struct SharedSequenceOperatorsTests {
    @Test("map, filter, compactMap keep the sharing strategy")
    @MainActor
    func transforms() async {
      await drainMainQueue()
      let relay = BehaviorRelay(value: 1)
      let driver: Driver<String> = relay.asDriver().map { $0 * 10 }.filter { $0 != 20 }
        .compactMap { $0 > 5 ? "\($0)" : nil }
      var values: [String] = []
      let subscription = driver.drive(onNext: { values.append($0) })
      relay.accept(2)
      relay.accept(3)
      var late: [String] = []
      let second = driver.drive(onNext: { late.append($0) })
      subscription.dispose()
      second.dispose()
      #expect(values == ["10", "30"])
      #expect(late == ["30"])
    }

    @Test("distinctUntilChanged: equatable, key, comparer")
    @MainActor
    func distinct() async {
      await drainMainQueue()
      let relay = PublishRelay<Int>()
      let signal = relay.asSignal()
      var plain: [Int] = []
      var keyed: [Int] = []
      var compared: [Int] = []
      let bag = DisposeBag()
      signal.distinctUntilChanged().emit(onNext: { plain.append($0) }).disposed(by: bag)
      signal.distinctUntilChanged { $0 / 10 }.emit(onNext: { keyed.append($0) }).disposed(by: bag)
      signal.distinctUntilChanged { abs($0 - $1) < 2 }.emit(onNext: { compared.append($0) })
        .disposed(by: bag)
      for value in [1, 1, 2, 12, 13, 1] { relay.accept(value) }
      #expect(plain == [1, 2, 12, 13, 1])
      #expect(keyed == [1, 12, 1])
      #expect(compared == [1, 12, 1])
    }

    @Test("flatMapLatest switches to the latest inner sequence and takes its strategy")
    @MainActor
    func flatMapLatest() async {
      await drainMainQueue()
      let outer = BehaviorRelay(value: 0)
      let inners = [PublishRelay<String>(), PublishRelay<String>()]
      let result: Signal<String> = outer.asDriver()
        .flatMapLatest { index in inners[index].asSignal() }
      var values: [String] = []
      let subscription = result.emit(onNext: { values.append($0) })
      inners[0].accept("a")
      outer.accept(1)
      inners[0].accept("stale")
      inners[1].accept("b")
      subscription.dispose()
      inners[1].accept("after")
      #expect(values == ["a", "b"])
    }
  }
}
