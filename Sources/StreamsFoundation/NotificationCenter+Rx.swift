import Foundation
import Streams

#if !canImport(ObjectiveC)
  // On Apple platforms every NSObject is ReactiveCompatible (Streams' core says so); on Linux
  // Foundation's classes are not Objective-C objects, so the ones with `.rx` say it here.
  extension NotificationCenter: ReactiveCompatible {}
#endif

extension Reactive where Base: NotificationCenter {
  /// The notifications named `name` (every notification when `nil`) posted by `object` (by any
  /// object when `nil`), as RxCocoa's `NotificationCenter.rx.notification(_:object:)`.
  ///
  /// ```swift
  /// let didLogIn = Notification.Name("DidLogIn")
  /// let subscription = NotificationCenter.default.rx.notification(didLogIn)
  ///   .subscribe(onNext: { notification in print(notification.name.rawValue) })
  /// NotificationCenter.default.post(name: didLogIn, object: nil)
  /// // Prints "DidLogIn"
  /// subscription.dispose()
  /// ```
  ///
  /// Each subscription adds one observer to the center, removed when the subscription is
  /// disposed. A notification is delivered on the thread that posts it, synchronously, as
  /// `addObserver(forName:object:queue:using:)` with no queue delivers it. The sequence never
  /// completes.
  ///
  /// - Parameters:
  ///   - name: The notification's name, or `nil` for every notification.
  ///   - object: The object whose notifications to deliver, or `nil` for any object's. The
  ///     subscription keeps it, as the observer registration keeps nothing: keep it alive
  ///     yourself for as long as you want its notifications.
  public func notification(_ name: Notification.Name?, object: AnyObject? = nil)
    -> Observable<Notification>
  {
    let center = base
    let sender = UncheckedSendableBox(object)
    return Observable.create { observer in
      let token = UncheckedSendableBox(
        center.addObserver(forName: name, object: sender.value, queue: nil) { notification in
          observer.onNext(notification)
        })
      return Disposables.create { center.removeObserver(token.value) }
    }
  }
}

/// A value that crosses into a `@Sendable` closure because Foundation's own API does not mark it
/// `Sendable`: the object a notification comes from, and the token `addObserver` returns, which
/// are only handed back to the center (thread-safe) and never read.
struct UncheckedSendableBox<Value>: @unchecked Sendable {
  let value: Value

  init(_ value: Value) {
    self.value = value
  }
}
