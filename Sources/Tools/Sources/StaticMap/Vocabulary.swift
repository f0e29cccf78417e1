/// The names the map knows: the types of streams, the calls that subscribe, the calls that send.
/// RxSwift, RxRelay, RxCocoa and Streams spell them alike.
enum Vocabulary {
  /// Subjects and relays: what code sends into.
  static let subjects: Set<String> = [
    "PublishSubject", "BehaviorSubject", "ReplaySubject", "AsyncSubject", "PublishRelay",
    "BehaviorRelay", "ReplayRelay",
  ]

  /// The other stream types: a property of one of these is a stream.
  static let sequences: Set<String> = [
    "Observable", "Single", "Maybe", "Completable", "Driver", "Signal", "ControlEvent",
    "ControlProperty", "Infallible", "PrimitiveSequence", "SharedSequence",
  ]

  /// The types whose static methods make streams (`Observable.combineLatest(a, b)`).
  static let factories: Set<String> = [
    "Observable", "Single", "Maybe", "Completable", "Driver", "Signal", "Infallible",
  ]

  /// The calls that subscribe, by name, with the kind a recorded trace gives their node.
  static func terminalKind(_ name: String, firstLabel: String?) -> String? {
    switch name {
    case "subscribe" where firstLabel == "on": nil  // subscribe(on:) is an operator
    case "subscribe": firstLabel == "with" ? "subscribe(with:)" : "subscribe"
    case "bind":
      switch firstLabel {
      case "to": "bind(to:)"
      case "with": "bind(with:)"
      default: "bind"  // bind(onNext:), bind { }
      }
    case "drive": "drive"
    case "emit": firstLabel == "to" ? "emit(to:)" : "emit"
    default: nil
    }
  }

  /// RxCocoa's `.rx` calls that make no stream: binders of data sources and delegate setters.
  static let reactiveNonStreams: Set<String> = [
    "items", "setDelegate", "setDataSource", "itemsWithDataSource",
  ]

  /// The calls that send into a subject or relay.
  static let sends: Set<String> = ["onNext", "accept", "on", "onCompleted", "onError"]

  /// Member calls on a stream that neither make a new stream nor subscribe.
  static let notOperators: Set<String> = [
    "disposed", "dispose", "asObserver", "value", "values", "onNext", "accept", "on",
    "onCompleted", "onError",
  ]

  /// Argument labels that recorded kinds keep (`observe(on:)`, `take(until:)`).
  static let kindLabels: Set<String> = ["on", "until", "while", "when", "for"]

  /// The kind a recorded trace gives a subject or relay: Streams' relays are subjects inside.
  static func recordedKind(_ type: String) -> String {
    switch type {
    case "PublishRelay": "PublishSubject"
    case "BehaviorRelay": "BehaviorSubject"
    case "ReplayRelay": "ReplaySubject"
    default: type
    }
  }

  /// The imports the migration table reports.
  static let rxModules: Set<String> = ["RxSwift", "RxCocoa", "RxRelay"]
  static let streamsModules: Set<String> = ["Streams", "StreamsState"]

  /// The type named by `text` without module, generic arguments or optionality:
  /// `RxSwift.PublishSubject<Int>?` → `PublishSubject`.
  static func baseTypeName(_ text: String) -> String {
    var name = Substring(text)
    if let angle = name.firstIndex(of: "<") { name = name[..<angle] }
    name = name.drop { $0 == " " || $0 == "(" }
    while let last = name.last, last == "?" || last == "!" || last == " " || last == ")" {
      name = name.dropLast()
    }
    if let dot = name.lastIndex(of: "."),
      rxModules.union(streamsModules).contains(String(name[..<dot]))
    {
      name = name[name.index(after: dot)...]
    }
    return String(name)
  }

  /// Whether a type's text names a stream type: not a function type (`(Observable<Int>) -> Void`)
  /// nor a tuple (`(PublishSubject<Int>, Int)`) that mentions one.
  static func isStream(_ typeText: String) -> Bool {
    if typeText.contains("->") { return false }
    var depth = 0
    for character in typeText {
      switch character {
      case "<", "(", "[": depth += 1
      case ">", ")", "]": depth -= 1
      case "," where depth == 1 && typeText.hasPrefix("("): return false
      default: break
      }
    }
    let name = baseTypeName(typeText)
    return subjects.contains(name) || sequences.contains(name)
  }
}
