/// The state of one `groupBy` subscription: the table of groups, while the source runs.
///
/// Each group is a ``PublishSubject``; the machine makes one the first time a key is seen, and
/// hands the sink what to do with an element (send it to its group, or emit a new group first)
/// or with the source's end (the groups, in the order they were created, to end before the outer
/// sequence). It never calls out, and the sink never reads its storage.
///
/// No lock: the source calls the sink serially (the event grammar), and the sink asks the
/// machine only from there. A transition never calls out, so an observer that re-enters the
/// source from inside a delivery finds the machine in a consistent state.
///
/// ```
///             the source ends, or the key selector throws
///   running ──────────────────────────────────────────────▶ ended
///      ▲ │
///      └─┘ an element: its group, made if its key is new
/// ```
struct GroupByStateMachine<Key: Hashable, Element> {
  /// Where the source stands.
  private enum State {
    /// The source runs: `groups` by key, and `ordered`, the same groups in the order they were
    /// created, which is the order they receive the terminal event in.
    case running(groups: [Key: PublishSubject<Element>], ordered: [PublishSubject<Element>])
    /// The source ended, or the key selector threw: nothing more is delivered.
    case ended
  }

  /// What to do with an element whose key was selected.
  enum ReceivedAction {
    /// Nothing: the sequence ended (an observer ended it while the key was being selected).
    case drop
    /// Send the element to `group`, the group of its key.
    case forward(to: PublishSubject<Element>)
    /// Its key is new: emit `group`'s sequence, then send the element to it.
    case open(PublishSubject<Element>)
  }

  /// What to do when the source ends.
  enum EndAction {
    /// Nothing: the sequence already ended.
    case none
    /// Send the terminal event to `groups`, in order, then to the outer observer, and dispose
    /// the source.
    case end(groups: [PublishSubject<Element>])
  }

  private var state = State.running(groups: [:], ordered: [])

  /// `true` once the sequence ended: elements are dropped before their key is selected.
  var hasEnded: Bool {
    if case .ended = state { return true }
    return false
  }

  /// An element with `key` arrived.
  mutating func received(key: Key) -> ReceivedAction {
    guard case .running(var groups, var ordered) = state else { return .drop }
    if let group = groups[key] { return .forward(to: group) }
    state = .ended  // moves the tables out, so that they are changed in place
    let group = PublishSubject<Element>()
    groups[key] = group
    ordered.append(group)
    state = .running(groups: groups, ordered: ordered)
    return .open(group)
  }

  /// The source ended, or the key selector threw: every group ends, then the outer sequence.
  mutating func ended() -> EndAction {
    guard case .running(_, let ordered) = state else { return .none }
    state = .ended
    return .end(groups: ordered)
  }
}
