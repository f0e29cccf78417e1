/// What a subject replays to a new subscriber.
@usableFromInline
enum ReplayPolicy {
  /// Nothing (PublishSubject).
  case none
  /// The latest element, always present (BehaviorSubject).
  case latest
  /// Up to `n` latest elements; `Int.max` for unbounded (ReplaySubject).
  case buffer(Int)
  /// The last element, delivered only with completion (AsyncSubject).
  case last
}
