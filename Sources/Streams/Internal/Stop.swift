/// Stops the program with `message`, in every build configuration: a misuse of the API, or an
/// internal error. `precondition` drops its message in -O builds (the app would stop with
/// "Illegal instruction" and nothing else), `fatalError` keeps it.
///
/// Out of line, and the message is built only when the program stops, so that a check costs its
/// caller one branch: `if count < 0 { streamsStop("take(_:): count can't be negative") }`.
@usableFromInline
@inline(never)
func streamsStop(
  _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line
) -> Never {
  fatalError(message(), file: file, line: line)
}
