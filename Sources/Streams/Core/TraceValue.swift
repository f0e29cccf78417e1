/// An element or error as a tracer keeps it, ready to be described later on another thread.
///
/// A plain value (no references: numbers, `Bool`, enums and structs of them) of up to 16 bytes
/// is kept as its bytes and its type, without boxing; a `String` is kept as it is; anything
/// else (objects, existentials, collections, values holding references, larger plain values) is
/// described when it is made (`String(describing:)`), on the delivering thread, since a later
/// description could read state that another thread changes, and would keep objects alive.
///
/// ```swift
/// print(TraceValue(42), TraceValue("hi"), TraceValue([1, 2]))
/// // Prints "42 hi [1, 2]"
/// ```
///
/// A "plain value" is one the runtime reports as POD. That includes `Unmanaged` and structs with
/// `unowned(unsafe)` references: their bytes are kept, and describing them later describes the
/// object they point to, which may be gone. Do not trace elements of such types with values on.
///
/// `@unchecked Sendable`: its fields are immutable; the type is a metatype (immutable, global)
/// of a value with no references, whose bytes are the other field.
public struct TraceValue: @unchecked Sendable, CustomStringConvertible {
  @usableFromInline let type: (any Any.Type)?
  @usableFromInline let words: (UInt64, UInt64)
  @usableFromInline let text: String?

  /// Keeps `value`: its bytes when it is a plain value of up to 16 bytes, itself when it is a
  /// string, its description otherwise.
  @inlinable
  public init<Value>(_ value: Value) {
    if let words = Self.plainWords(of: value) {
      self.init(type: Value.self, words: words, text: nil)
    } else if Value.self == String.self {
      // A native string: one bridged from an `NSString` is copied, so that releasing it later
      // (under a tracer's lock) releases no Objective-C object.
      var text = unsafeBitCast(value, to: String.self)
      text.makeContiguousUTF8()
      self.init(type: nil, words: (0, 0), text: text)
    } else {
      self.init(type: nil, words: (0, 0), text: String(describing: value))
    }
  }

  /// A value already described.
  @inlinable
  public init(description: String) {
    self.init(type: nil, words: (0, 0), text: description)
  }

  /// A plain value of `type` whose bytes are `words` (see ``plain``).
  /// Memory-unsafe when `words` are not the bytes of a `type` value: `package`, for StreamsTrace.
  package init(plainType type: any Any.Type, words: (UInt64, UInt64)) {
    self.init(type: type, words: words, text: nil)
  }

  /// The bytes of `value` when it is a plain value of up to 16 bytes (what a ``TraceValue`` keeps
  /// of it); `nil` otherwise.
  @inlinable
  static func plainWords<Value>(of value: Value) -> (UInt64, UInt64)? {
    guard _isPOD(Value.self), MemoryLayout<Value>.size <= 16, MemoryLayout<Value>.alignment <= 8
    else { return nil }
    var words: (UInt64, UInt64) = (0, 0)
    // Unprotected: a pointer to a local would otherwise give every traced delivery a stack
    // canary (about 7 instructions), though the store stays within the words' 16 bytes.
    _withUnprotectedUnsafeMutablePointer(to: &words) {
      UnsafeMutableRawPointer($0).storeBytes(of: value, as: Value.self)
    }
    return words
  }

  /// A plain value's type and bytes, for a tracer that stores them in memory of its own; `nil`
  /// for a string or a description.
  @inlinable
  package var plain: (type: any Any.Type, words: (UInt64, UInt64))? {
    guard let type else { return nil }
    return (type, words)
  }

  @inlinable
  init(type: (any Any.Type)?, words: (UInt64, UInt64), text: String?) {
    self.type = type
    self.words = words
    self.text = text
  }

  /// The value's description (`String(describing:)`), made now for a plain value.
  public var description: String {
    if let text { return text }
    guard let type else { return "" }
    return Self.describe(type, words)
  }

  private static func describe<Value>(_ type: Value.Type, _ words: (UInt64, UInt64)) -> String {
    withUnsafeBytes(of: words) { String(describing: $0.load(as: Value.self)) }
  }
}
