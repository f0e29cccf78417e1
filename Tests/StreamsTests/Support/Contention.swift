import Dispatch
import Foundation
import Testing

@testable import Streams

/// What a contention run measured: the most events one call delivered on its thread, and how
/// many events the observer received.
struct ContentionStats {
  var maxPerCall: Int
  var delivered: Int
  /// How many waits for a delivery turn the run's threads gave up (after which a claim holder
  /// may deliver past its turn).
  var gaveUp = 0
}

/// How many events the observer of a contention run received on the calling thread: each thread
/// has its own counter, read before and after a call.
///
/// `@unchecked Sendable`: a meter is only touched by the thread whose dictionary holds it.
final class CallMeter: @unchecked Sendable {
  var deliveries = 0

  static var current: CallMeter {
    let dictionary = Thread.current.threadDictionary
    if let meter = dictionary["streams.tests.meter"] as? CallMeter { return meter }
    let meter = CallMeter()
    dictionary["streams.tests.meter"] = meter
    return meter
  }

  /// Runs `body` and returns how many events were delivered on this thread meanwhile.
  static func count(_ body: () -> Void) -> Int {
    let meter = current
    let before = meter.deliveries
    body()
    return meter.deliveries - before
  }
}

/// Threads that send without pause: thread `i` sends `i * stride + 1`, `i * stride + 2`, ...
enum Contention {
  static let stride = 1_000_000

  static func sender(of value: Int) -> Int { value / stride }

  /// Runs `senders` threads, each sending `perSender` values through `send` as fast as it can,
  /// released together, and `alongside` (given a flag that turns true once the senders are done)
  /// on a thread of its own. Returns the most events one `send` call delivered on its thread.
  static func run(
    senders: Int, perSender: Int,
    alongside: (@Sendable (_ stop: @escaping @Sendable () -> Bool) -> Void)? = nil,
    send: @escaping @Sendable (Int) -> Void
  ) -> ContentionStats {
    let start = DispatchSemaphore(value: 0)
    let done = DispatchGroup()
    let results = TestBox(0)
    let gaveUp = TestBox(0)
    let finished = TestBox(false)
    for sender in 0..<senders {
      done.enter()
      Thread {
        start.wait()
        let gaveUpBefore = TurnWaiter.gaveUpOnThisThread
        var most = 0
        for seq in 1...perSender {
          most = max(most, CallMeter.count { send(sender * stride + seq) })
        }
        results.withLock { $0 = max($0, most) }
        let given = TurnWaiter.gaveUpOnThisThread - gaveUpBefore
        gaveUp.withLock { $0 += given }
        done.leave()
      }.start()
    }
    let side = DispatchGroup()
    if let alongside {
      side.enter()
      Thread {
        start.wait()
        let gaveUpBefore = TurnWaiter.gaveUpOnThisThread
        alongside { finished.withLock { $0 } }
        let given = TurnWaiter.gaveUpOnThisThread - gaveUpBefore
        gaveUp.withLock { $0 += given }
        side.leave()
      }.start()
    }
    for _ in 0..<(senders + (alongside == nil ? 0 : 1)) { start.signal() }
    let inTime = done.wait(timeout: .now() + .seconds(120)) == .success
    #expect(inTime, "the senders did not finish: a lost hand-off or a deadlock")
    finished.withLock { $0 = true }
    _ = side.wait(timeout: .now() + .seconds(60))
    return ContentionStats(
      maxPerCall: results.withLock { $0 }, delivered: 0, gaveUp: gaveUp.withLock { $0 })
  }
}

/// The observer of a contention run: counts each event on the delivering thread's meter and
/// checks that each sender's values arrive once each, in order.
///
/// `@unchecked Sendable`: the log is behind `lock`; the meter belongs to the calling thread.
final class ContentionLog: @unchecked Sendable {
  private let lock = NSLock()
  private var last: [Int]
  private var others: [Int] = []
  private var problems: [String] = []
  private var count = 0

  init(senders: Int) {
    last = Array(repeating: 0, count: senders)
  }

  func receive(_ value: Int) {
    CallMeter.current.deliveries += 1
    lock.withLock {
      count += 1
      let sender = Contention.sender(of: value)
      guard value >= 0, sender < last.count else {
        others.append(value)
        return
      }
      let seq = value % Contention.stride
      if seq != last[sender] + 1 {
        problems.append("sender \(sender): \(seq) after \(last[sender])")
      }
      last[sender] = seq
    }
  }

  var total: Int { lock.withLock { count } }

  /// Every sender's `perSender` values arrived, once each and in order, after `initial`.
  func expectComplete(perSender: Int, initial: [Int] = []) {
    lock.withLock {
      #expect(problems.isEmpty, "\(problems.prefix(5))")
      #expect(last == Array(repeating: perSender, count: last.count))
      #expect(others == initial)
    }
  }
}

/// A thread that subscribes to a subject with a replay and disposes, again and again, while
/// senders send: each subscription must get the replay inside `subscribe`, then each sender's
/// values in order, and no `subscribe` may deliver more than a turn.
///
/// `@unchecked Sendable`: its counters are only written by the thread running ``run(_:until:)``
/// and read after it is done.
final class LateSubscribers: @unchecked Sendable {
  private(set) var subscriptions = 0
  private(set) var maxPerCall = 0
  private(set) var problems: [String] = []

  func run(_ subject: BehaviorSubject<Int>, until stop: () -> Bool) {
    while !stop() {
      let received = TestBox([Int]())
      var subscription: (any Disposable)?
      let delivered = CallMeter.count {
        subscription = subject.subscribe(onNext: { value in received.withLock { $0.append(value) } }
        )
      }
      maxPerCall = max(maxPerCall, delivered)
      subscriptions += 1
      subscription?.dispose()
      let values = received.withLock { $0 }
      if values.isEmpty { problems.append("no replay inside subscribe") }
      var last: [Int: Int] = [:]
      for value in values {
        let sender = Contention.sender(of: value)
        let seq = value % Contention.stride
        if let previous = last[sender], seq <= previous {
          problems.append("sender \(sender): \(seq) after \(previous)")
        }
        last[sender] = seq
      }
    }
  }
}

/// A value behind an `NSLock` (which ThreadSanitizer understands), for test bookkeeping.
final class TestBox<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value
  init(_ value: Value) { self.value = value }
  func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
    lock.withLock { body(&value) }
  }
}
