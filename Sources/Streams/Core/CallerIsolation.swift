import Dispatch
import StreamsShims

/// The isolation of the code that subscribed closures, checked each time Streams calls them.
///
/// Swift 6 infers a non-`Sendable` closure written in actor-isolated code (a `@MainActor` view
/// controller, an actor's method) to be isolated to that actor, and trusts a Swift 6 library to
/// call it only there, so it inserts no check of its own. A reactive sequence calls its
/// subscriber's closures on whatever thread delivers the event. The subscribe methods that take
/// closures therefore record the caller's isolation (an `isolation` parameter defaulting to
/// `#isolation`) and, when there is one, check it before each call: a closure written on the main
/// actor and reached from a background thread stops the program with a message naming the
/// subscribe call, instead of racing. (RxSwift, built in Swift 5 mode, gets the same check from
/// the compiler at the start of each such closure; see `Guides/Migration.md`, "Swift 6
/// isolation".)
///
/// Subscriptions made outside actor-isolated code record nothing and pay nothing per event.
///
/// The actor is held weakly: an operator's checked closure lives as long as the observable it
/// was built into, and an actor that keeps an observable it built (`self.results = source.map {
/// ... }`) would otherwise be kept alive by it. Once the actor is gone nothing is checked: no
/// code isolated to it can run any more.
@usableFromInline
struct CallerIsolation: Sendable {
  /// The actor the closures were written in; `nil` for nonisolated code.
  @usableFromInline weak var actor: (any Actor)?
  @usableFromInline let api: StaticString
  @usableFromInline let file: StaticString
  @usableFromInline let line: UInt

  @inlinable
  init(_ actor: (any Actor)?, api: StaticString, file: StaticString, line: UInt) {
    self.actor = actor
    self.api = api
    self.file = file
    self.line = line
  }

  /// `closure`, made to check the isolation before each call when there is one to check.
  ///
  /// The `guarding` overloads take the optional closures of the subscribe methods and hand `nil`
  /// back as it is; the `checked` overloads take the closures of operators. They differ only in
  /// the closure's shape. Nonisolated callers get their closure back as it was, so they pay
  /// nothing per call.
  @inlinable
  func guarding<Argument>(_ closure: ((Argument) -> Void)?) -> ((Argument) -> Void)? {
    guard let closure, actor != nil else { return closure }
    return { argument in
      self.check()
      closure(argument)
    }
  }

  /// `closure`, made to check the isolation before each call when there is one to check.
  @inlinable
  func guarding<First, Second, Result>(_ closure: ((First, Second) -> Result)?) -> (
    (First, Second) -> Result
  )? {
    guard let closure, actor != nil else { return closure }
    return { first, second in
      self.check()
      return closure(first, second)
    }
  }

  /// `closure`, made to check the isolation before each call when there is one to check.
  @inlinable
  func guarding(_ closure: (() -> Void)?) -> (() -> Void)? {
    guard let closure, actor != nil else { return closure }
    return {
      self.check()
      closure()
    }
  }

  /// An operator's `closure`, made to check the isolation before each call when there is one to
  /// check.
  @inlinable
  func checked<Result>(_ closure: @escaping () throws -> Result) -> () throws -> Result {
    guard actor != nil else { return closure }
    return {
      self.check()
      return try closure()
    }
  }

  /// An operator's `closure`, made to check the isolation before each call when there is one to
  /// check.
  @inlinable
  func checked<Argument, Result>(
    _ closure: @escaping (Argument) throws -> Result
  ) -> (Argument) throws -> Result {
    guard actor != nil else { return closure }
    return { argument in
      self.check()
      return try closure(argument)
    }
  }

  /// An operator's `closure`, made to check the isolation before each call when there is one to
  /// check.
  @inlinable
  func checked<First, Second, Result>(
    _ closure: @escaping (First, Second) throws -> Result
  ) -> (First, Second) throws -> Result {
    guard actor != nil else { return closure }
    return { first, second in
      self.check()
      return try closure(first, second)
    }
  }

  /// An operator's `closure`, made to check the isolation before each call when there is one to
  /// check.
  @inlinable
  func checked<State, Argument>(
    _ closure: @escaping (inout State, Argument) throws -> Void
  ) -> (inout State, Argument) throws -> Void {
    guard actor != nil else { return closure }
    return { state, argument in
      self.check()
      try closure(&state, argument)
    }
  }

  /// Stops the program unless the calling thread runs on the recorded actor.
  @usableFromInline
  func check() {
    guard let actor else { return }
    if actor === MainActor.shared {
      // The main queue or the main thread, as Swift's own check counts them: under `swift test`
      // on Linux the main actor runs on the main queue away from the main thread, and on the main
      // thread inside another queue's `sync` the main queue is not current.
      if MainQueueCheck.isMain || streams_is_main_thread() { return }
      streamsStop(message(actorName: "the main actor"), file: file, line: line)
    }
    // Another actor: the runtime checks it and reports a failure in its own words ("Incorrect
    // actor executor assumption"). It has no such check before these OS versions, where only the
    // main actor is checked.
    if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) {
      actor.preconditionIsolated(message(actorName: "\(type(of: actor))"), file: file, line: line)
    }
  }

  private func message(actorName: String) -> String {
    "Streams: the closures given to \(api) at \(file):\(line) were written in code isolated to "
      + "\(actorName), so Swift 6 treats them as isolated to it, but the sequence delivered on "
      + "another thread: a data race. Deliver on that actor first (observe(on: "
      + "MainScheduler.instance), a Driver, bind(to:) a StateCell), or pass isolation: nil if "
      + "the closures touch nothing isolated to it."
  }
}
