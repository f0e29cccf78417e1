extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Never {
  /// Completes when every `Completable` has completed; they are all subscribed at once, as
  /// RxSwift's `Completable.zip` (which, for `Completable`, is `merge`).
  ///
  /// ```swift
  /// let ready = Completable.zip(cache.warmUp(), fonts.load())
  /// // warmUp: --|   load: ----|   result: ----|
  /// ```
  ///
  /// Completes at once when there is no source; fails with the first failure, disposing the
  /// others. Each source's subscription is disposed when it completes; disposal disposes all.
  public static func zip(
    _ sources: Completable..., file: StaticString = #fileID, line: UInt = #line
  ) -> Completable {
    zip(sources, file: file, line: line)
  }

  /// Completes when every `Completable` in `sources` has completed; see
  /// ``zip(_:file:line:)-(Completable...,_,_)``.
  ///
  /// ```swift
  /// let saved = Completable.zip(drafts.map { store.save($0) })
  /// ```
  public static func zip(
    _ sources: [Completable], file: StaticString = #fileID, line: UInt = #line
  ) -> Completable {
    Completable(raw: Observable.merge(sources.map(\.source), file: file, line: line))
  }

  /// Completes when every `Completable` in `sources` has completed; see
  /// ``zip(_:file:line:)-(Completable...,_,_)``.
  ///
  /// ```swift
  /// let saved = Completable.zip(Set(pending).map { store.save($0) })
  /// ```
  public static func zip<Sources: Collection>(
    _ sources: Sources, file: StaticString = #fileID, line: UInt = #line
  ) -> Completable where Sources.Element == Completable {
    zip(Array(sources), file: file, line: line)
  }

  /// Runs the `Completable`s one after the other, each once the previous one has completed, as
  /// RxSwift's `Completable.concat`.
  ///
  /// ```swift
  /// let setup = Completable.concat(migrate(), seed(), warmUp())
  /// // migrate: --|   seed: --|   warmUp: -|   result: -----|
  /// ```
  ///
  /// Completes when the last one does (at once when there is none); fails with the first
  /// failure, and the later ones are then never subscribed. Each one's subscription is disposed
  /// when it completes; disposal disposes the one running.
  public static func concat(
    _ sources: Completable..., file: StaticString = #fileID, line: UInt = #line
  ) -> Completable {
    concat(sources, file: file, line: line)
  }

  /// Runs the `Completable`s of `collection` one after the other; see
  /// ``concat(_:file:line:)-(Completable...,_,_)``.
  ///
  /// ```swift
  /// let uploads = Completable.concat(files.map { api.upload($0) })
  /// ```
  public static func concat<Sources: Collection>(
    _ collection: Sources, file: StaticString = #fileID, line: UInt = #line
  ) -> Completable where Sources.Element == Completable {
    Completable(raw: Observable.concat(collection.map(\.source), file: file, line: line))
  }

  /// Runs the `Completable`s of `sequence` one after the other, pulling the next one from the
  /// sequence only when the previous one has completed; see
  /// ``concat(_:file:line:)-(Completable...,_,_)``.
  ///
  /// ```swift
  /// let steps = Completable.concat(migrations.lazy.map { $0.run() })
  /// ```
  public static func concat<Sources: Sequence>(
    _ sequence: Sources, file: StaticString = #fileID, line: UInt = #line
  ) -> Completable where Sources.Element == Completable {
    Completable(raw: Observable.concat(sequence.lazy.map(\.source), file: file, line: line))
  }
}
