import Dispatch
import Streams
import StreamsTest
import Testing

@Suite("BlockingObservable")
struct BlockingObservableTests {
  @Test("toArray collects a synchronous sequence without deadlocking")
  func toArraySynchronous() throws {
    #expect(try Self.synchronous([1, 2, 3]).toBlocking().toArray() == [1, 2, 3])
    #expect(try Self.synchronous([Int]()).toBlocking().toArray() == [])
  }

  @Test("toArray waits for a sequence that emits on another thread")
  func toArrayAsynchronous() throws {
    #expect(try Self.background([1, 2, 3]).toBlocking(timeout: 10).toArray() == [1, 2, 3])
  }

  @Test("toArray, first and last rethrow the sequence's error")
  func errors() {
    let failing = Self.synchronous([1], error: TestFailure.boom)
    #expect(throws: TestFailure.boom) { try failing.toBlocking().toArray() }
    #expect(throws: TestFailure.boom) { try failing.toBlocking().last() }
    #expect(throws: TestFailure.boom) {
      try Self.background([Int](), error: TestFailure.boom).toBlocking(timeout: 10).first()
    }
  }

  @Test("first returns the first element and disposes the subscription; nil when empty")
  func first() throws {
    let stopped = DispatchSemaphore(value: 0)
    let infinite = Observable<Int>.create { observer in
      let stop = BooleanDisposable()
      DispatchQueue.global().async {
        var value = 0
        while !stop.isDisposed {
          value += 1
          observer.onNext(value)
        }
        stopped.signal()
      }
      return stop
    }
    #expect(try infinite.toBlocking(timeout: 10).first() == 1)
    // The producer only stops when first() disposes the subscription.
    #expect(stopped.wait(timeout: .now() + 10) == .success)
    #expect(try Self.synchronous([Int]()).toBlocking().first() == nil)
    #expect(try Self.synchronous([4, 5]).toBlocking().first() == 4)
  }

  @Test("first succeeds even if the sequence would fail after the first element")
  func firstBeforeError() throws {
    #expect(try Self.synchronous([7], error: TestFailure.boom).toBlocking().first() == 7)
  }

  @Test("last returns the last element, nil when empty")
  func last() throws {
    #expect(try Self.background([1, 2, 3]).toBlocking(timeout: 10).last() == 3)
    #expect(try Self.synchronous([Int]()).toBlocking().last() == nil)
  }

  @Test("single returns the only element or throws noElements / moreThanOneElement")
  func single() throws {
    #expect(try Self.synchronous([9]).toBlocking().single() == 9)
    #expect(throws: RxError.noElements) { try Self.synchronous([Int]()).toBlocking().single() }
    #expect(throws: RxError.moreThanOneElement) {
      try Self.synchronous([1, 2]).toBlocking().single()
    }
    #expect(throws: TestFailure.boom) {
      try Self.synchronous([1], error: TestFailure.boom).toBlocking().single()
    }
  }

  @Test("single with a predicate counts matching elements; a throwing predicate fails it")
  func singlePredicate() throws {
    let numbers = Self.synchronous([1, 2, 3, 5])
    #expect(try numbers.toBlocking().single { $0 % 2 == 0 } == 2)
    #expect(throws: RxError.noElements) { try numbers.toBlocking().single { $0 > 10 } }
    #expect(throws: RxError.moreThanOneElement) { try numbers.toBlocking().single { $0 > 2 } }
    #expect(throws: TestFailure.other) {
      try numbers.toBlocking().single { value in
        if value == 3 { throw TestFailure.other }
        return false
      }
    }
  }

  @Test("materialize reports completion or failure with the elements so far")
  func materialize() {
    switch Self.background([1, 2]).toBlocking(timeout: 10).materialize() {
    case .completed(let elements): #expect(elements == [1, 2])
    case .failed(_, let error): Issue.record("unexpected failure \(error)")
    }
    switch Self.synchronous([1], error: TestFailure.boom).toBlocking().materialize() {
    case .completed: Issue.record("expected a failure")
    case .failed(let elements, let error):
      #expect(elements == [1])
      #expect(error as? TestFailure == .boom)
    }
  }

  @Test("a sequence that never terminates times out with BlockingTimeoutError and is disposed")
  func timeout() {
    let disposed = Log<Bool>()
    let never = Observable<Int>.create { observer in
      observer.onNext(1)
      return Disposables.create { disposed.append(true) }
    }
    let offMain = BlockingTimeoutError(timeout: 0.05, blockedMainQueue: false)
    #expect(throws: offMain) { try never.toBlocking(timeout: 0.05).toArray() }
    #expect(disposed.values == [true])
    switch never.toBlocking(timeout: 0.05).materialize() {
    case .completed: Issue.record("expected a timeout")
    case .failed(let elements, let error):
      #expect(elements == [1])
      #expect(error as? BlockingTimeoutError == offMain)
      #expect(!(error is RxError))
    }
  }

  @Test("the blocking timeout names the wait, and the main queue when it blocked it")
  func timeoutDescription() async {
    let offMain = BlockingTimeoutError(timeout: 0.5, blockedMainQueue: false)
    #expect(
      offMain.description
        == "toBlocking(timeout: 0.5): the sequence gave no answer within 0.5 s while the thread "
        + "was blocked waiting for it (this is the blocking wait's timeout, not the timeout "
        + "operator's RxError.timeout).")
    let onMain = await withCheckedContinuation {
      (continuation: CheckedContinuation<(any Error)?, Never>) in
      DispatchQueue.main.async {
        let result = Observable<Int>.never().toBlocking(timeout: 0.01).materialize()
        guard case .failed(_, let error) = result else {
          return continuation.resume(returning: nil)
        }
        continuation.resume(returning: error)
      }
    }
    let error = onMain as? BlockingTimeoutError
    #expect(error == BlockingTimeoutError(timeout: 0.01, blockedMainQueue: true))
    #expect(error?.description.contains("The blocked thread was running the main queue") == true)
    #expect(!offMain.description.contains("main queue"))
  }

  @Test("toBlocking works on subjects fed from another thread")
  func subject() throws {
    let subject = ReplaySubject<Int>.create(bufferSize: 10)
    DispatchQueue.global().async {
      subject.onNext(1)
      subject.onNext(2)
      subject.onCompleted()
    }
    #expect(try subject.toBlocking(timeout: 10).toArray() == [1, 2])
  }

  /// Emits `values` (then `error` or completion) inside `subscribe`.
  static func synchronous<Element>(_ values: [Element], error: (any Error)? = nil)
    -> Observable<Element>
  {
    Observable.create { observer in
      for value in values { observer.onNext(value) }
      if let error { observer.onError(error) } else { observer.onCompleted() }
      return Disposables.create()
    }
  }

  /// Emits `values` (then `error` or completion) on a background queue.
  static func background<Element: Sendable>(_ values: [Element], error: (any Error)? = nil)
    -> Observable<Element>
  {
    let failure = error.map { UncheckedError($0) }
    return Observable.create { observer in
      DispatchQueue.global().async {
        for value in values { observer.onNext(value) }
        if let failure { observer.onError(failure.error) } else { observer.onCompleted() }
      }
      return Disposables.create()
    }
  }
}

/// Sends an error to another thread in a test.
struct UncheckedError: @unchecked Sendable {
  // Test errors are immutable values.
  let error: any Error
  init(_ error: any Error) { self.error = error }
}
