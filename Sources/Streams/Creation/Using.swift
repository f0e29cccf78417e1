extension ObservableType {
  /// Creates a resource for each subscription, builds the observable from it, and disposes the
  /// resource when the subscription ends.
  ///
  /// ```swift
  /// let lines = Observable.using(
  ///   { Disposables.create { print("closed") } },
  ///   observableFactory: { _ in Observable.of("a", "b") })
  /// _ = lines.subscribe(onNext: { print($0) })
  /// // Prints "a", "b", "closed"
  /// ```
  ///
  /// Completes and fails as the created observable does; a throw from either factory becomes
  /// `.error` (the resource, if it was created, is disposed after the error is delivered). The
  /// resource is disposed after the subscription to the created observable, when that observable
  /// terminates or the subscription is disposed.
  ///
  /// - Parameters:
  ///   - resourceFactory: Creates the resource, once per subscription.
  ///   - observableFactory: Builds the observable that uses the resource.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  public static func using<Resource: Disposable>(
    _ resourceFactory: @escaping () throws -> Resource,
    observableFactory: @escaping (Resource) throws -> Observable<Element>,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    Observable(kind: "using", upstreams: [], file: file, line: line) { observer in
      let sink = GuardedSink(observer)
      let resource: Resource
      do {
        resource = try resourceFactory()
      } catch {
        sink.on(.error(error))
        return sink
      }
      let source: Observable<Element>
      do {
        source = try observableFactory(resource)
      } catch {
        sink.on(.error(error))
        resource.dispose()
        return sink
      }
      let subscription = source.subscribeAny(AnyObserver(eventHandler: sink.on))
      sink.setUpstream(CompositeDisposable(subscription, resource))
      return sink
    }
  }
}
