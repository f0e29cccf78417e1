/// Reads boxed values back in order with their static types (the combinations of `combineLatest`
/// and `zip` over parameter packs, and of `Maybe.zip`).
struct PackReader<Values: RandomAccessCollection<Any>> where Values.Index == Int {
  private let values: Values
  private var index: Int

  init(_ values: Values) {
    self.values = values
    self.index = values.startIndex
  }

  /// The next value, which the combining operator stored from a source of element type `type`.
  mutating func take<Value>(_ type: Value.Type) -> Value {
    defer { index += 1 }
    guard let value = values[index] as? Value else {
      preconditionFailure("Streams internal error: combined value \(index) has the wrong type")
    }
    return value
  }
}
