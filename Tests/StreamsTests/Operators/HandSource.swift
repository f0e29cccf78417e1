import Streams

/// A source driven by hand: its events reach the operator at once, also from inside an observer
/// (a subject would queue such an event behind the one it is delivering). Disposing its
/// subscription logs "`name` disposed".
final class HandSource {
  private var observer: AnyObserver<Int>?
  let log: ScenarioLog
  let name: String

  init(log: ScenarioLog, name: String = "source") {
    self.log = log
    self.name = name
  }

  var observable: Observable<Int> {
    Observable.create { [self] observer in
      self.observer = observer
      return Disposables.create { [log, name] in log.add("\(name) disposed") }
    }
  }

  func send(_ value: Int) { observer?.onNext(value) }
  func complete() { observer?.onCompleted() }
  func fail(_ error: any Error) { observer?.onError(error) }
}
