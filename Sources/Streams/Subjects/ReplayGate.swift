/// A new subscriber's replay, delivered by the subscribing thread while another thread holds
/// its subject's delivery claim (see ``SubjectCore/subscribe(_:)``).
///
/// The subscriber's table entry is this gate's ``observer``. Until the subscribing thread has
/// delivered the replay, the events the claim holder delivers to the entry are held back in
/// ``inbox``; the subscribing thread then delivers them too, and opens the gate when none is left,
/// after which events pass straight through (one atomic load more per event, for the life of the
/// subscription). So the subscriber gets the replay, then every later event, once each, in order
/// and one at a time, and the delivering thread never delivers another thread's replay.
///
/// `@unchecked Sendable`: the held-back events are guarded by `inbox`'s lock and the gate's state
/// (0 closed, 1 open) is its atomic word, set under that lock; `target` is immutable.
@usableFromInline
final class ReplayGate<Element>: @unchecked Sendable {
  @usableFromInline let target: AnyObserver<Element>
  /// Events that reached the entry before the replay was done; word 1 once the gate is open.
  @usableFromInline let inbox = Locked(RingQueue<Event<Element>>())

  @inlinable
  init(_ target: AnyObserver<Element>) {
    self.target = target
  }

  /// The table entry's observer.
  @inlinable
  var observer: AnyObserver<Element> { AnyObserver(eventHandler: on) }

  /// Called by the thread holding the claim: holds `event` back while the gate is closed,
  /// otherwise delivers it.
  @inlinable
  func on(_ event: Event<Element>) {
    if inbox.loadWord() == 0 {
      let held = inbox.withLock { queue -> Bool in
        if inbox.loadWord() != 0 { return false }
        queue.append(event)
        return true
      }
      if held { return }
    }
    target.on(event)
  }

  /// Called by the subscribing thread: delivers `replay`, then what was held back meanwhile
  /// (each while `isLive()`: the subscription and the subject are not disposed), and opens the
  /// gate once nothing is held back.
  @inlinable
  func open(after replay: [Event<Element>], while isLive: () -> Bool) {
    for event in replay where isLive() { target.on(event) }
    while true {
      let held = inbox.withLock { queue -> RingQueue<Event<Element>> in
        if queue.isEmpty { inbox.storeWord(1) }
        return queue.removeAll()
      }
      if held.isEmpty { return }
      for event in held where isLive() { target.on(event) }
    }
  }
}
