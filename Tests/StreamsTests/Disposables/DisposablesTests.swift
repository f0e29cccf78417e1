import Streams
import Testing

/// Counts calls from any thread.
final class CallCounter: @unchecked Sendable {
  // Guarded by `lock`.
  private var count = 0
  private let lock = TestLock()
  func increment() { lock.run { count += 1 } }
  var value: Int { lock.run { count } }
}

@Suite("Disposables")
struct DisposablesTests {
  @Test("create(with:) runs its action once")
  func anonymous() {
    let counter = CallCounter()
    let disposable = Disposables.create { counter.increment() }
    #expect(!disposable.isDisposed)
    disposable.dispose()
    disposable.dispose()
    #expect(counter.value == 1)
    #expect(disposable.isDisposed)
  }

  @Test("create with two, three and more disposables disposes all, in order")
  func binaryAndMore() {
    let order = OrderLog()
    Disposables.create(
      Disposables.create { order.append(1) }, Disposables.create { order.append(2) }
    ).dispose()
    Disposables.create(
      Disposables.create { order.append(3) }, Disposables.create { order.append(4) },
      Disposables.create { order.append(5) }
    ).dispose()
    Disposables.create(
      Disposables.create { order.append(6) }, Disposables.create { order.append(7) },
      Disposables.create { order.append(8) }, Disposables.create { order.append(9) }
    ).dispose()
    Disposables.create([Disposables.create { order.append(10) }]).dispose()
    Disposables.create().dispose()
    #expect(order.values == Array(1...10))
  }

  @Test("BooleanDisposable records disposal")
  func boolean() {
    let disposable = BooleanDisposable()
    #expect(!disposable.isDisposed)
    disposable.dispose()
    #expect(disposable.isDisposed)
    #expect(BooleanDisposable(isDisposed: true).isDisposed)
  }

  @Test("SingleAssignmentDisposable disposes on set after disposal")
  func singleAssignment() {
    let counter = CallCounter()
    let single = SingleAssignmentDisposable()
    single.dispose()
    #expect(single.isDisposed)
    single.setDisposable(Disposables.create { counter.increment() })
    #expect(counter.value == 1)

    let other = SingleAssignmentDisposable()
    other.setDisposable(Disposables.create { counter.increment() })
    #expect(counter.value == 1)
    other.dispose()
    other.dispose()
    #expect(counter.value == 2)
  }

  @Test("SingleAssignmentDisposable set twice stops the program with a message")
  func singleAssignmentTwice() async {
    await #expect(processExitsWith: .failure) {
      let single = SingleAssignmentDisposable()
      single.setDisposable(Disposables.create())
      single.setDisposable(Disposables.create())
    }
  }

  @Test("SerialDisposable disposes the replaced disposable and later ones after disposal")
  func serial() {
    let order = OrderLog()
    let serial = SerialDisposable()
    serial.disposable = Disposables.create { order.append(1) }
    serial.disposable = Disposables.create { order.append(2) }
    #expect(order.values == [1])
    serial.dispose()
    #expect(order.values == [1, 2])
    serial.disposable = Disposables.create { order.append(3) }
    #expect(order.values == [1, 2, 3])
    #expect(serial.isDisposed)
  }

  @Test("CompositeDisposable inserts, removes and disposes in insertion order")
  func composite() {
    let order = OrderLog()
    let composite = CompositeDisposable()
    let first = composite.insert(Disposables.create { order.append(1) })
    _ = composite.insert(Disposables.create { order.append(2) })
    _ = composite.insert(Disposables.create { order.append(3) })
    #expect(composite.count == 3)
    composite.remove(for: first!)
    #expect(order.values == [1])
    composite.dispose()
    #expect(order.values == [1, 2, 3])
    #expect(composite.insert(Disposables.create { order.append(4) }) == nil)
    #expect(order.values == [1, 2, 3, 4])
    #expect(composite.isDisposed)
  }

  @Test("DisposeBag disposes its contents when released, including builder forms")
  func disposeBag() {
    let counter = CallCounter()
    do {
      let bag = DisposeBag()
      Disposables.create { counter.increment() }.disposed(by: bag)
      bag.insert(
        Disposables.create { counter.increment() }, Disposables.create { counter.increment() })
      bag.insert {
        Disposables.create { counter.increment() }
        Disposables.create { counter.increment() }
      }
      #expect(counter.value == 0)
    }
    #expect(counter.value == 5)
    do {
      _ = DisposeBag(disposing: Disposables.create { counter.increment() })
      _ = DisposeBag {
        Disposables.create { counter.increment() }
      }
    }
    #expect(counter.value == 7)
  }

  @Test("RefCountDisposable releases only when the primary and every handle are disposed")
  func refCount() {
    let counter = CallCounter()
    let refCount = RefCountDisposable(disposable: Disposables.create { counter.increment() })
    let first = refCount.retain()
    let second = refCount.retain()
    refCount.dispose()
    #expect(counter.value == 0)
    first.dispose()
    #expect(counter.value == 0)
    second.dispose()
    #expect(counter.value == 1)
    #expect(refCount.isDisposed)
    refCount.retain().dispose()
    #expect(counter.value == 1)
  }

  @Test("ScheduledDisposable disposes on its scheduler")
  func scheduled() {
    let scheduler = VirtualTimeScheduler()
    let counter = CallCounter()
    let scheduled = ScheduledDisposable(
      scheduler: scheduler, disposable: Disposables.create { counter.increment() })
    scheduled.dispose()
    #expect(scheduled.isDisposed)
    #expect(counter.value == 0)
    scheduler.start()
    #expect(counter.value == 1)
  }
}

/// Records integers in order from any thread.
final class OrderLog: @unchecked Sendable {
  // Guarded by `lock`.
  private var storage: [Int] = []
  private let lock = TestLock()
  func append(_ value: Int) { lock.run { storage.append(value) } }
  var values: [Int] { lock.run { storage } }
}
