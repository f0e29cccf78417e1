import Dispatch

/// Delivery on the main thread for `Driver` and `Signal`, private to them.
///
/// Detecting the main thread without Foundation: a `DispatchSpecificKey` is set on the main queue
/// the first time it is needed; `DispatchQueue.getSpecific(key:)` returns its value exactly when
/// the calling code runs on the main queue (libdispatch binds the main thread to the main queue at
/// start-up, so this holds for code on the main thread outside any block too, and for blocks of
/// queues that target the main queue). The same check serves Darwin and Linux.
///
/// Ordering follows RxSwift's `MainScheduler`: an action runs synchronously when the caller is on
/// the main thread and no other hop is queued or running; otherwise it is queued on the main queue.
/// One process-wide count of queued actions keeps every action in the order it was submitted, and
/// turns a hop requested from inside another (re-entrancy) into a queued one.
enum MainHop {
  /// Marks the main queue; see the type's documentation.
  ///
  /// `@unchecked Sendable`: the key is an immutable reference that libdispatch reads and writes
  /// under its own synchronization.
  private struct Marker: @unchecked Sendable {
    let key = DispatchSpecificKey<UInt8>()

    init() {
      DispatchQueue.main.setSpecific(key: key, value: 1)
    }
  }

  private static let marker = Marker()
  private static let queued = AtomicCounter()

  /// `true` when the caller runs on the main queue (the main thread).
  static var isMainThread: Bool {
    DispatchQueue.getSpecific(key: marker.key) != nil
  }

  /// Runs `action` on the main thread: now if already there and nothing is queued, otherwise
  /// queued behind the actions submitted before it.
  static func run(_ action: @escaping @Sendable () -> Void) {
    if queued.increment() == 1 && isMainThread {
      action()
      queued.decrement()
      return
    }
    DispatchQueue.main.async {
      action()
      queued.decrement()
    }
  }

  /// Runs a main-actor closure on the main thread: now if already there, otherwise queued.
  static func runOnMainActor(_ action: @escaping @MainActor @Sendable () -> Void) {
    if isMainThread {
      MainActor.assumeIsolated(action)
    } else {
      DispatchQueue.main.async { MainActor.assumeIsolated(action) }
    }
  }

  /// Forwards `source`'s events on the main thread. Events already queued when the subscription
  /// is disposed are dropped.
  static func observeOnMain<Element: Sendable>(
    _ source: Observable<Element>, file: StaticString, line: UInt
  ) -> Observable<Element> {
    Observable(kind: "observeOnMain", upstreams: [source.traceID], file: file, line: line) {
      observer in
      let sink = GuardedSink(observer)
      let target = SendableSink(sink)
      sink.setUpstream(
        source.subscribeAny(
          AnyObserver { event in
            run { target.sink.on(event) }
          }))
      return sink
    }
  }

  /// Emits `events` on the main thread when subscribed: the shared sequences' `just` and `empty`.
  static func emitOnMain<Element: Sendable>(
    _ events: [Event<Element>], kind: StaticString, file: StaticString, line: UInt
  ) -> Observable<Element> {
    Observable(kind: kind, upstreams: [], file: file, line: line) { observer in
      let sink = GuardedSink(observer)
      let target = SendableSink(sink)
      run {
        for event in events { target.sink.on(event) }
      }
      return sink
    }
  }
}
