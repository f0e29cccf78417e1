import Dispatch
import Foundation
import Streams
import Testing

/// `Resources.Scope` counts one test's objects while other tests run beside it: these checks
/// run in the test process, in parallel with the rest.
@Suite("Resources.Scope")
struct ResourcesScopeTests {
  @Test("counts the objects made in run, until they are released")
  func countsOwnObjects() {
    guard Resources.isCounting else { return }
    let scope = Resources.Scope()
    let subject = scope.run { PublishSubject<Int>() }
    #expect(scope.live == 1)
    let subscription = scope.run { subject.map { $0 + 1 }.subscribe(onNext: { _ in }) }
    #expect(scope.live > 1)
    subscription.dispose()
    #expect(scope.live == 1)
    withExtendedLifetime(subject) {}
  }

  @Test("objects made outside run, or on a thread that does not bind the scope, do not count")
  func notOutside() {
    guard Resources.isCounting else { return }
    let scope = Resources.Scope()
    let outside = PublishSubject<Int>()
    let fromThread = TestBox<PublishSubject<Int>?>(nil)
    scope.run {
      let done = DispatchSemaphore(value: 0)
      Thread {
        let subject = PublishSubject<Int>()
        fromThread.withLock { $0 = subject }
        done.signal()
      }.start()
      done.wait()
    }
    #expect(scope.live == 0)
    withExtendedLifetime(outside) {}
    fromThread.withLock { $0 = nil }
  }

  @Test("an object leaves its scope when it is released on another thread")
  func releasedElsewhere() {
    guard Resources.isCounting else { return }
    let scope = Resources.Scope()
    let holder = TestBox<Unchecked<PublishSubject<Int>>?>(
      scope.run { Unchecked(PublishSubject<Int>()) })
    #expect(scope.live == 1)
    let done = DispatchSemaphore(value: 0)
    Thread {
      do {
        // Taken out of the box, and released here, by its last reference.
        let taken = holder.withLock { value in
          defer { value = nil }
          return value
        }
        withExtendedLifetime(taken) {}
      }
      done.signal()
    }.start()
    done.wait()
    #expect(scope.live == 0)
  }

  @Test("an inner scope counts what is made in it; the outer one does not")
  func nested() {
    guard Resources.isCounting else { return }
    let outer = Resources.Scope()
    let inner = Resources.Scope()
    let (first, second) = outer.run {
      let first = PublishSubject<Int>()
      let second = inner.run { PublishSubject<Int>() }
      #expect(Resources.Scope.current === outer)
      return (first, second)
    }
    #expect(outer.live == 1)
    #expect(inner.live == 1)
    withExtendedLifetime((first, second)) {}
  }

  @Test("tasks made in an async run count in the scope")
  func tasksInherit() async {
    guard Resources.isCounting else { return }
    let scope = Resources.Scope()
    let subject = await scope.run {
      await Task { Unchecked(PublishSubject<Int>()) }.value
    }
    #expect(scope.live == 1)
    withExtendedLifetime(subject) {}
  }

  @Test("a task made in run and still running after it returned counts in the scope")
  func taskOutlivesRun() async {
    guard Resources.isCounting else { return }
    let scope = Resources.Scope()
    let gate = AsyncStream<Void>.makeStream()
    let task = scope.run {
      Task {
        for await _ in gate.stream {}
        return Unchecked(PublishSubject<Int>())
      }
    }
    gate.continuation.finish()
    let subject = await task.value
    #expect(scope.live == 1)
    withExtendedLifetime(subject) {}
  }
}
