extension ObservableType {
  /// Merges the elements of several sequences into one, as they arrive.
  ///
  /// ```swift
  /// let a = PublishSubject<Int>(), b = PublishSubject<Int>()
  /// _ = Observable.merge(a, b).subscribe(onNext: { print($0) })
  /// a.onNext(1); b.onNext(2); a.onNext(3)
  /// // Prints "1", "2", "3"
  /// ```
  ///
  /// Subscribes to every source at once, in order. Completes when every source completed (at once
  /// when there is none); fails with the first error, disposing the other sources. Each source's
  /// subscription is disposed when it completes; disposal disposes them all. Sources may emit on
  /// different threads: elements are delivered one at a time, never concurrently and never under a
  /// lock; one that arrives while another is being delivered waits for it (RxSwift blocks the
  /// emitting thread on a recursive lock instead).
  @inlinable
  public static func merge(
    _ sources: Observable<Element>..., file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    merge(sources, file: file, line: line)
  }

  /// Merges the elements of the sequences in `sources` into one, as they arrive.
  ///
  /// ```swift
  /// let a = PublishSubject<Int>(), b = PublishSubject<Int>()
  /// _ = Observable.merge([a.asObservable(), b.asObservable()]).subscribe(onNext: { print($0) })
  /// b.onNext(1); a.onNext(2)
  /// // Prints "1", "2"
  /// ```
  ///
  /// Completes when every source completed (at once for an empty array); fails with the first
  /// error, disposing the others. Disposal disposes every source subscription.
  /// A source that fails while being subscribed ends the merge there: the sources after it are
  /// not subscribed, where RxSwift subscribes and disposes them at once (no event differs; see
  /// `Guides/Migrating-from-RxSwift.md`).
  @inlinable
  public static func merge(
    _ sources: [Observable<Element>], file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> {
    Observable(kind: "merge", upstreams: sources.map(\.traceID), file: file, line: line) {
      observer in
      MergeSink.subscribe(all: sources, observer: observer)
    }
  }

  /// Merges the elements of the sequences in `sources` into one, as they arrive.
  ///
  /// ```swift
  /// let a = PublishSubject<Int>(), b = PublishSubject<Int>()
  /// let sources: ArraySlice = [a.asObservable(), b.asObservable()]
  /// _ = Observable.merge(sources).subscribe(onNext: { print($0) })
  /// a.onNext(1)
  /// // Prints "1"
  /// ```
  ///
  /// Completes when every source completed (at once for an empty collection); fails with the
  /// first error, disposing the others. Disposal disposes every source subscription.
  /// A source that fails while being subscribed ends the merge there: the sources after it are
  /// not subscribed, where RxSwift subscribes and disposes them at once (no event differs; see
  /// `Guides/Migrating-from-RxSwift.md`).
  @inlinable
  public static func merge<Sources: Collection>(
    _ sources: Sources, file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Element> where Sources.Element == Observable<Element> {
    merge(Array(sources), file: file, line: line)
  }
}

extension ObservableType where Element: ObservableConvertibleType {
  /// Merges the elements of every inner sequence into one, as they arrive.
  ///
  /// ```swift
  /// let outer = PublishSubject<Observable<Int>>()
  /// let a = PublishSubject<Int>(), b = PublishSubject<Int>()
  /// _ = outer.merge().subscribe(onNext: { print($0) })
  /// outer.onNext(a.asObservable()); outer.onNext(b.asObservable())
  /// b.onNext(1); a.onNext(2)
  /// // Prints "1", "2"
  /// ```
  ///
  /// Subscribes to each inner sequence when it arrives. Completes when the outer sequence and
  /// every inner sequence completed; fails with the first error of any of them, disposing the
  /// rest. The outer subscription is disposed when it completes, each inner one when it
  /// completes; disposal disposes all of them.
  @inlinable
  public func merge(file: StaticString = #fileID, line: UInt = #line)
    -> Observable<Element.Element>
  {
    let source = asObservable()
    return Observable(kind: "merge", upstreams: [source.traceID], file: file, line: line) {
      observer in
      MergeSink.subscribe(source, limit: .unbounded, observer: observer) { $0.asObservable() }
    }
  }

  /// Merges the elements of the inner sequences, running at most `maxConcurrent` of them at once.
  ///
  /// ```swift
  /// let outer = PublishSubject<Observable<Int>>()
  /// let a = PublishSubject<Int>(), b = PublishSubject<Int>()
  /// _ = outer.merge(maxConcurrent: 1).subscribe(onNext: { print($0) })
  /// outer.onNext(a.asObservable()); outer.onNext(b.asObservable())
  /// b.onNext(1)  // b waits for a
  /// a.onNext(2); a.onCompleted(); b.onNext(3)
  /// // Prints "2", "3"
  /// ```
  ///
  /// Inner sequences that arrive while `maxConcurrent` run wait, in order, for one to complete.
  /// Completes when the outer sequence completed and no inner sequence runs or waits; fails with
  /// the first error, disposing the rest. Disposal disposes every subscription and drops the
  /// waiting sequences.
  ///
  /// - Parameters:
  ///   - maxConcurrent: At least 1.
  ///   - file: The calling file (default `#fileID`), recorded for tracing.
  ///   - line: The calling line (default `#line`), recorded for tracing.
  @inlinable
  public func merge(maxConcurrent: Int, file: StaticString = #fileID, line: UInt = #line)
    -> Observable<Element.Element>
  {
    if maxConcurrent <= 0 { streamsStop("merge(maxConcurrent:) needs maxConcurrent >= 1") }
    let source = asObservable()
    return Observable(kind: "merge", upstreams: [source.traceID], file: file, line: line) {
      observer in
      MergeSink.subscribe(source, limit: .queue(maxConcurrent), observer: observer) {
        $0.asObservable()
      }
    }
  }
}
