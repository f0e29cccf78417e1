import Streams
import StreamsTest

/// A ``TestScheduler`` that counts its timers still pending: scheduled, neither fired nor
/// disposed.
final class CountingScheduler: SchedulerType {
  let base = TestScheduler(initialClock: 0)
  private let live = Locked(0)

  /// The timers scheduled that neither fired nor were disposed.
  var liveTimers: Int { live.withLock { $0 } }

  var now: RxTime { base.now }

  func schedule<StateType: Sendable>(
    _ state: StateType, action: @escaping @Sendable (StateType) -> any Disposable
  ) -> any Disposable {
    base.schedule(state, action: action)
  }

  func scheduleRelative<StateType: Sendable>(
    _ state: StateType, dueTime: RxTimeInterval,
    action: @escaping @Sendable (StateType) -> any Disposable
  ) -> any Disposable {
    let ended = Locked(false)
    let live = self.live
    live.withLock { $0 += 1 }
    let end: @Sendable () -> Void = {
      let first = ended.withLock { ended in
        defer { ended = true }
        return !ended
      }
      if first { live.withLock { $0 -= 1 } }
    }
    let scheduled = base.scheduleRelative(state, dueTime: dueTime) { state in
      end()
      return action(state)
    }
    return Disposables.create {
      end()
      scheduled.dispose()
    }
  }
}
