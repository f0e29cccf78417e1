import Dispatch
import Streams
import StreamsTest
import Testing

private final class Label: ReactiveCompatible {
  var text: String?
  var count = 0
}

/// A main-actor class, as UIKit's views are.
@MainActor
private final class TitleView: ReactiveCompatible {
  var title = ""
}

private struct Counter: ReactiveCompatible {
  let values: [Int]
}

extension Reactive where Base: Label {
  /// A binder of its own, as RxCocoa extensions declare them.
  fileprivate var shout: Binder<String> {
    Binder(base) { label, text in label.text = text.uppercased() }
  }

  /// A static member reached through `Label.rx`.
  fileprivate static var kind: String { "label" }
}

extension Reactive where Base == Counter {
  fileprivate var values: Observable<Int> { Observable.from(base.values) }
}

extension MainThreadDeliveryTests {
  @Suite("Reactive")
  struct ReactiveTests {
    @Test("a key path of a class is a Binder that writes on the main scheduler")
    @MainActor
    func keyPathBinder() async {
      await drainMainQueue()
      let label = Label()
      let subject = PublishSubject<String?>()
      let subscription = subject.bind(to: label.rx.text)
      subject.onNext("a")
      #expect(label.text == "a")
      DispatchQueue.global().sync { subject.onNext("b") }
      #expect(label.text == "a")
      await drainMainQueue()
      #expect(label.text == "b")
      _ = Observable.of(1, 2).bind(to: label.rx.count)
      #expect(label.count == 2)
      subscription.dispose()
    }

    @Test("the key-path binder holds its base weakly")
    @MainActor
    func weakBase() async {
      await drainMainQueue()
      var label: Label? = Label()
      weak let weakLabel = label
      let binder = label!.rx.text
      binder.onNext("a")
      #expect(label?.text == "a")
      label = nil
      #expect(weakLabel == nil)
      binder.onNext("b")
      binder.onCompleted()
    }

    @Test("a main-actor class's properties bind through .rx")
    @MainActor
    func mainActorBase() async {
      await drainMainQueue()
      let view = TitleView()
      let titles = BehaviorRelay(value: "first")
      let subscription = titles.bind(to: view.rx.title)
      #expect(view.title == "first")
      titles.accept("second")
      #expect(view.title == "second")
      subscription.dispose()
    }

    @Test("extensions on Reactive, static .rx and value types")
    @MainActor
    func extensions() async {
      await drainMainQueue()
      let label = Label()
      _ = Observable.just("hey").bind(to: label.rx.shout)
      #expect(label.text == "HEY")
      #expect(Label.rx == Reactive<Label>.self)
      #expect(Label.rx.kind == "label")
      var values: [Int] = []
      _ = Counter(values: [1, 2]).rx.values.subscribe(onNext: { values.append($0) })
      #expect(values == [1, 2])
      var counter = Counter(values: [3])
      counter.rx = Reactive(Counter(values: [4]))
      #expect(counter.values == [3])
      #expect(Reactive(counter).base.values == [3])
    }

    @Test("an error reaching a key-path binder stops the program")
    func errorTraps() async {
      await #expect(processExitsWith: .failure) {
        let label = Label()
        label.rx.count.onError(RxError.unknown)
      }
    }
  }
}
