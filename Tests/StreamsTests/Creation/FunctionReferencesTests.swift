import Streams
import Testing

@Suite("Factories as function references", .serialized)
struct FunctionReferencesTests {
  @Test("Observable.just, from and error compile and behave as function references")
  func observableReferences() {
    var received: [Int] = []
    _ = Observable.of(1, 2).flatMap(Observable.just).subscribe(onNext: { received.append($0) })
    _ = Observable.just([3, 4]).flatMap(Observable.from).subscribe(onNext: { received.append($0) })
    _ = Observable.just(5...6).flatMap(Observable.from).subscribe(onNext: { received.append($0) })
    _ = Observable.of(7, nil, 8).flatMap(Observable.from(optional:))
      .subscribe(onNext: { received.append($0) })
    #expect(received == [1, 2, 3, 4, 5, 6, 7, 8])

    var errors: [String] = []
    _ = Observable<Int>.error(TraitError(1)).catch(Observable.error)
      .subscribe(onError: { errors.append("\($0)") })
    #expect(errors == ["TraitError(code: 1)"])
  }

  @Test("the trait factories as function references")
  func traitReferences() {
    var received: [String] = []
    _ = Single.just(1).flatMap(Single.just).subscribe(onSuccess: { received.append("s\($0)") })
    _ = Maybe.just(2).flatMap(Maybe.just).subscribe(onSuccess: { received.append("m\($0)") })
    _ = Infallible.just(3).flatMap(Infallible.just).subscribe(onNext: { received.append("i\($0)") })
    _ = Single<Int>.error(TraitError(4)).catch(Single.error)
      .subscribe(onFailure: { received.append("\($0)") })
    _ = Maybe<Int>.error(TraitError(5)).catch(Maybe.error)
      .subscribe(onError: { received.append("\($0)") })
    _ = Completable.error(TraitError(6)).catch(Completable.error)
      .subscribe(onError: { received.append("\($0)") })
    #expect(
      received == [
        "s1", "m2", "i3", "TraitError(code: 4)", "TraitError(code: 5)", "TraitError(code: 6)",
      ])
  }

  @Test("a direct call still records the caller's file and line; a reference records none")
  func callSites() {
    let direct = Observable.just(1)
    let directLine: UInt = #line - 1
    #expect(direct.traceNode.file == #fileID)
    #expect(direct.traceNode.line == directLine)

    let error = Observable<Int>.error(TraitError())
    let errorLine: UInt = #line - 1
    #expect(error.traceNode.line == errorLine)
    let array = Observable.from([1])
    #expect(array.traceNode.line == #line - 1)
    let single = Single.just(1).asObservable()
    #expect(single.traceNode.line == #line - 1)
    let maybe = Maybe<Int>.error(TraitError()).asObservable()
    #expect(maybe.traceNode.line == #line - 1)

    let reference: (Int) -> Observable<Int> = Observable.just
    let made = reference(1)
    #expect(made.traceNode.file == "(function reference)")
    #expect(made.traceNode.line == 0)
  }
}
