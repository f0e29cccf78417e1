/// Carries a value that is not `Sendable` into a `@Sendable` closure: an `Observable` to other
/// threads (subscribing from any thread is part of the Rx contract), or a value into a virtual-time
/// scheduler's actions, which all run on the test's thread.
///
/// `@unchecked Sendable`: each use says why the value may cross; `value` is immutable.
struct Unchecked<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
