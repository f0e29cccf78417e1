@testable import Streams

/// A source whose `subscribe` logs "`name` subscribed", runs `body` with the observer, and returns
/// a subscription that logs "`name` disposed" at each call of `dispose()`. Unlike a `create`
/// subscription, it does not dispose itself when the source ends inside `body` or later, so the
/// log shows what the operator disposes, and how many times.
func loggedSource(
  _ log: ScenarioLog, _ name: String, _ body: @escaping (AnyObserver<Int>) -> Void
) -> Observable<Int> {
  Observable(kind: "test.logged", upstreams: []) { observer in
    log.add("\(name) subscribed")
    body(observer)
    return LoggingDisposable(log: log, line: "\(name) disposed")
  }
}

/// Logs `line` at every call of `dispose()`.
private final class LoggingDisposable: Disposable {
  let log: ScenarioLog
  let line: String

  init(log: ScenarioLog, line: String) {
    self.log = log
    self.line = line
  }

  func dispose() { log.add(line) }
}
