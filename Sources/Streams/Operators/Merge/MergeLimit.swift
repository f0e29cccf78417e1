/// How many inner sequences a merging operator runs at once.
@usableFromInline
enum MergeLimit: Sendable {
  /// Every inner sequence at once (`flatMap`, `merge()`).
  case unbounded
  /// At most `n`; the others wait in arrival order (`merge(maxConcurrent:)`, `concatMap`,
  /// `concat()`).
  case queue(Int)
  /// One at a time; elements that arrive while one runs are dropped (`flatMapFirst`).
  case dropWhileBusy
}
