extension PrimitiveSequence {
  /// Creates a resource for each subscription, builds the trait from it, and disposes the
  /// resource when the subscription ends, as RxSwift's `using(_:primitiveSequenceFactory:)`.
  ///
  /// ```swift
  /// let rows = Single.using(
  ///   { Database.open() },  // a class conforming to Disposable; dispose() closes it
  ///   primitiveSequenceFactory: { database in database.rowCount() })
  /// _ = rows.subscribe(onSuccess: { print($0) })
  /// // Prints the count, then the database is closed
  /// ```
  ///
  /// Succeeds, completes and fails as the created trait does; a throw from either factory fails
  /// the result (the resource, if it was created, is disposed after the error is delivered). The
  /// resource is disposed after the created trait's subscription, when it terminates or the
  /// subscription is disposed (see ``ObservableType/using(_:observableFactory:file:line:)``).
  ///
  /// - Parameters:
  ///   - resourceFactory: Creates the resource, once per subscription.
  ///   - primitiveSequenceFactory: Builds the trait that uses the resource.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  public static func using<Resource: Disposable>(
    _ resourceFactory: @escaping () throws -> Resource,
    primitiveSequenceFactory: @escaping (Resource) throws -> PrimitiveSequence<Trait, Element>,
    file: StaticString = #fileID, line: UInt = #line
  ) -> PrimitiveSequence<Trait, Element> {
    PrimitiveSequence(
      raw: Observable.using(
        resourceFactory, observableFactory: { try primitiveSequenceFactory($0).source },
        file: file, line: line))
  }
}
