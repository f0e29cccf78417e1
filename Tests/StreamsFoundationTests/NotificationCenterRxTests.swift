import Foundation
import StreamsFoundation
import Testing

@Suite("NotificationCenter.rx.notification")
struct NotificationCenterRxTests {
  let center = NotificationCenter()
  let loggedIn = Notification.Name("LoggedIn")
  let loggedOut = Notification.Name("LoggedOut")

  @Test("delivers the notifications of its name, synchronously, until disposed")
  func byName() {
    let received = Locked<[String]>([])
    let subscription = center.rx.notification(loggedIn).subscribe(onNext: { notification in
      received.withLock { $0.append(notification.name.rawValue) }
    })
    center.post(name: loggedIn, object: nil)
    center.post(name: loggedOut, object: nil)
    center.post(name: loggedIn, object: nil)
    #expect(received.withLock { $0 } == ["LoggedIn", "LoggedIn"])
    subscription.dispose()
    center.post(name: loggedIn, object: nil)
    #expect(received.withLock { $0 } == ["LoggedIn", "LoggedIn"])
  }

  @Test("an object filters by sender; a nil name delivers every notification")
  func byObject() {
    final class Sender {}
    let first = Sender()
    let second = Sender()
    let fromFirst = Locked(0)
    let all = Locked<[String]>([])
    let a = center.rx.notification(loggedIn, object: first).subscribe(onNext: { _ in
      fromFirst.withLock { $0 += 1 }
    })
    let b = center.rx.notification(nil).subscribe(onNext: { notification in
      all.withLock { $0.append(notification.name.rawValue) }
    })
    center.post(name: loggedIn, object: first)
    center.post(name: loggedIn, object: second)
    center.post(name: loggedOut, object: first)
    #expect(fromFirst.withLock { $0 } == 1)
    #expect(all.withLock { $0 } == ["LoggedIn", "LoggedIn", "LoggedOut"])
    a.dispose()
    b.dispose()
  }

  @Test("disposing lets go of the subscriber's closure; each subscription observes separately")
  func lifetime() {
    final class Screen {
      var count = 0
    }
    weak var released: Screen?
    let shared = center.rx.notification(loggedIn)
    let other = Locked(0)
    let kept = shared.subscribe(onNext: { _ in other.withLock { $0 += 1 } })
    do {
      let screen = Screen()
      released = screen
      let subscription = shared.subscribe(onNext: { _ in screen.count += 1 })
      center.post(name: loggedIn, object: nil)
      #expect(screen.count == 1)
      subscription.dispose()
    }
    #expect(released == nil)
    center.post(name: loggedIn, object: nil)
    #expect(other.withLock { $0 } == 2)
    kept.dispose()
  }
}
