import Streams
import StreamsTest
import Testing

private final class Label {
  var texts: [String] = []
}

@Suite("Binder")
struct BinderTests {
  @Test("binds elements on its scheduler and ignores completion")
  func bindsOnScheduler() {
    let scheduler = TestScheduler(initialClock: 0)
    let label = Label()
    let binder = Binder(label, scheduler: scheduler) { label, text in label.texts.append(text) }
    let xs = scheduler.createHotObservable([.next(210, "a"), .next(220, "b"), .completed(230)])
    scheduler.scheduleAt(200) { _ = xs.bind(to: binder) }
    scheduler.advanceTo(210)
    #expect(label.texts == [])
    scheduler.start()
    #expect(label.texts == ["a", "b"])
    #expect(xs.subscriptions == [Subscription(200, 230)])
  }

  @Test("holds the target weakly and stops binding once it is gone")
  func weakTarget() {
    let scheduler = TestScheduler(initialClock: 0)
    var label: Label? = Label()
    weak let weakLabel = label
    var calls = 0
    let binder = Binder(label!, scheduler: scheduler) { label, text in
      label.texts.append(text)
      calls += 1
    }
    binder.onNext("kept")
    scheduler.start()
    #expect(calls == 1)
    label = nil
    #expect(weakLabel == nil)
    binder.onNext("ignored")
    scheduler.start()
    #expect(calls == 1)
  }

  @Test("an error reaching a binder stops the program with a message")
  func errorTraps() async {
    await #expect(processExitsWith: .failure) {
      final class Target {}
      let binder = Binder(Target(), scheduler: CurrentThreadScheduler.instance) {
        (_: Target, _: Int) in
      }
      binder.onError(RxError.unknown)
    }
  }
}
