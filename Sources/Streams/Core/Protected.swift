/// The lock type of ``Locked``, for the other Streams modules (StreamsTest, StreamsState,
/// StreamsTrace): `package`, so that it never appears in an app's namespace.
package struct Protected<State> {
  private let base: Locked<State>

  /// Guards `state`.
  package init(_ state: State) {
    base = Locked(state)
  }

  /// Runs `body` with exclusive access to the state; `body` must not call out to user code.
  package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    try base.withLock(body)
  }
}

// `Sendable` when the guarded state is, as ``Locked``.
extension Protected: Sendable where State: Sendable {}
