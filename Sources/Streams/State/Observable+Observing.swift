import Dispatch
import Observation

extension Observable where Element: Sendable {
  /// An observable of what `read` returns, read again after every change of the Observation
  /// state it reads: Observation → Rx.
  ///
  /// ```swift
  /// let summary = Observable.observing {
  ///   "\(uiState.contentAlpha.value.title) · \(uiState.isLoading.value)"
  /// }
  /// summary.subscribe(onNext: { print($0) }).disposed(by: bag)
  /// ```
  ///
  /// `read` runs on the main actor: once on subscription (the current value comes first), then
  /// on the main queue's turn after a change of any cell or `@Observable` property it read,
  /// so that the changes made in one turn (one change set) give one element, read after the
  /// change. It never completes. A subscription made off the main queue starts on the main
  /// queue's next turn.
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  public static func observing(
    file: StaticString = #fileID, line: UInt = #line,
    _ read: @escaping @MainActor @Sendable () -> Element
  ) -> Observable<Element> {
    Observable(
      kind: "observing", upstreams: [], file: file, line: line, disposableReleasesObserver: true
    ) { observer in
      let subscription = ObservingSubscription(observer, read)
      MainQueueCheck.runOnMainActor { subscription.track() }
      return subscription
    }
  }
}

/// One subscription of ``Observable/observing(file:line:_:)``.
///
/// `@unchecked Sendable`: the observer and the closure are held in the lock's state and called
/// outside it; `flag` is only accessed atomically.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
final class ObservingSubscription<Element: Sendable>: ReleasingSubscription, Cancelable,
  @unchecked Sendable
{
  /// 0 until disposed, then 1. Must stay the first stored property (see
  /// ``ReleasingSubscription``).
  private var flag = 0

  private struct Active {
    let observer: AnyObserver<Element>
    let read: @MainActor @Sendable () -> Element
  }

  private let active: Locked<Active?>

  init(_ observer: AnyObserver<Element>, _ read: @escaping @MainActor @Sendable () -> Element) {
    active = Locked(Active(observer: observer, read: read))
  }

  var isDisposed: Bool { active.withLock { $0 == nil } }

  /// Reads under observation and sends the value; a change schedules the next read. The
  /// registration holds this subscription (a subscription whose disposable is dropped keeps
  /// going); once disposed, the subscription holds nothing but an empty lock until the next
  /// change lets go of it.
  @MainActor
  func track() {
    guard let read = active.withLock({ $0?.read }) else { return }
    let value = withObservationTracking(read) {
      DispatchQueue.main.async { MainActor.assumeIsolated { self.track() } }
    }
    active.withLock { $0?.observer }?.on(.next(value))
  }

  func dispose() {
    ReleasingSubscriptions.markDisposed(self)
    let ended = active.withLock { active in
      defer { active = nil }
      return active
    }
    _ = consume ended
  }
}
