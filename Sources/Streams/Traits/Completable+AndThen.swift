extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Never {
  /// Continues with the ``Single`` `second` once this `Completable` completes.
  ///
  /// ```swift
  /// let user = login.andThen(api.currentUser())
  /// // login: --|   currentUser: -(u|)   result: ---(u|)
  /// ```
  ///
  /// Fails if this `Completable` fails (`second` is then never subscribed) or `second` fails.
  /// This subscription is disposed before `second` is subscribed, and once this `Completable`
  /// completes or fails the subscription no longer holds it or what its closures capture (as in
  /// RxSwift); disposal disposes whichever runs.
  public func andThen<Result>(
    _ second: Single<Result>, file: StaticString = #fileID, line: UInt = #line
  ) -> Single<Result> {
    Single(
      raw: andThenConcat(primitiveSequence.source, second.source, file: file, line: line))
  }

  /// Continues with the ``Maybe`` `second` once this `Completable` completes.
  ///
  /// ```swift
  /// let cached = warmUp.andThen(cache.lookup("key"))
  /// ```
  ///
  /// Completes, succeeds and fails as described for ``andThen(_:file:line:)->Single<Result>``.
  public func andThen<Result>(
    _ second: Maybe<Result>, file: StaticString = #fileID, line: UInt = #line
  ) -> Maybe<Result> {
    Maybe(
      raw: andThenConcat(primitiveSequence.source, second.source, file: file, line: line))
  }

  /// Continues with the `Completable` `second` once this one completes.
  ///
  /// ```swift
  /// let setup = migrate.andThen(seed)
  /// // migrate: --|   seed: --|   result: ----|
  /// ```
  ///
  /// Completes when `second` does; fails when either fails.
  public func andThen(
    _ second: Completable, file: StaticString = #fileID, line: UInt = #line
  ) -> Completable {
    Completable(
      raw: andThenConcat(primitiveSequence.source, second.source, file: file, line: line))
  }

  /// Continues with the ``Observable`` `second` once this `Completable` completes.
  ///
  /// ```swift
  /// let messages = connect.andThen(socket.messages)
  /// // connect: --|   messages: -a-b-|   result: ---a-b-|
  /// ```
  ///
  /// Emits, completes and fails as `second` does, after this `Completable` has completed; fails
  /// if this `Completable` fails.
  public func andThen<Result>(
    _ second: Observable<Result>, file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Result> {
    andThenConcat(primitiveSequence.source, second, file: file, line: line)
  }
}

/// `first`, then `second` once `first` completes: core `concat` over the element-less first
/// sequence retyped to `Result`.
///
/// Each subscription iterates ``AndThenSources``, whose iterator lets go of a source once it has
/// handed it out: when `first` completes or fails, the subscription no longer holds it (nor what
/// its closures capture), as in RxSwift since its #2604.
private func andThenConcat<Result>(
  _ first: Observable<Never>, _ second: Observable<Result>, file: StaticString, line: UInt
) -> Observable<Result> {
  let retyped: Observable<Result> = first.map(absurd, file: file, line: line)
  return Observable.concatSequence(
    AndThenSources(first: retyped, second: second), upstreams: [retyped.traceID, second.traceID],
    file: file, line: line)
}

/// The two sources of `andThen`, iterated once per subscription.
private struct AndThenSources<Element>: Sequence {
  let first: Observable<Element>
  let second: Observable<Element>

  func makeIterator() -> Iterator { Iterator(first: first, second: second) }

  /// Hands out `first`, then `second`, keeping neither once handed out.
  struct Iterator: IteratorProtocol {
    var first: Observable<Element>?
    var second: Observable<Element>?

    mutating func next() -> Observable<Element>? {
      if let source = first.take() { return source }
      return second.take()
    }
  }
}
