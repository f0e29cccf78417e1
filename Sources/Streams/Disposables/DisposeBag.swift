/// Disposes the disposables added to it when it is deallocated.
///
/// ```swift
/// final class ViewModel {
///   private let disposeBag = DisposeBag()
///   init(query: Observable<String>) {
///     query.subscribe(onNext: { print($0) }).disposed(by: disposeBag)
///   }
/// }
/// ```
///
/// To cancel everything early, replace the bag: `disposeBag = DisposeBag()`.
///
/// A bag remembers where it was made (`#fileID` and `#line`, default arguments that cost nothing
/// at the call site), so that a tracer can name the type that owns each subscription it holds.
public final class DisposeBag: Sendable {
  private struct State {
    var disposables: [any Disposable] = []
    var isDisposed = false
  }

  private let state = Locked(State())
  /// Where the bag was made: the file names the type that owns it (by convention).
  let file: StaticString
  let line: UInt

  /// An empty bag.
  public init(file: StaticString = #fileID, line: UInt = #line) {
    self.file = file
    self.line = line
  }

  /// A bag holding `disposables`.
  public convenience init(
    disposing disposables: any Disposable..., file: StaticString = #fileID, line: UInt = #line
  ) {
    self.init(file: file, line: line)
    insert(disposables)
  }

  /// A bag holding the disposables the builder returns.
  public convenience init(
    file: StaticString = #fileID, line: UInt = #line,
    @DisposableBuilder builder: () -> [any Disposable]
  ) {
    self.init(file: file, line: line)
    insert(builder())
  }

  /// A bag holding `disposables`.
  public convenience init(
    disposing disposables: [any Disposable], file: StaticString = #fileID, line: UInt = #line
  ) {
    self.init(file: file, line: line)
    insert(disposables)
  }

  /// Adds `disposable` to the bag.
  public func insert(_ disposable: any Disposable) {
    if Tracing.isInstalled { Tracing.parked(disposable, in: self) }
    let disposeNow = state.withLock { state -> Bool in
      if state.isDisposed { return true }
      state.disposables.append(disposable)
      return false
    }
    if disposeNow { disposable.dispose() }
  }

  /// Adds the arguments to the bag.
  public func insert(_ disposables: any Disposable...) {
    insert(disposables)
  }

  /// Adds the disposables the builder returns.
  public func insert(@DisposableBuilder builder: () -> [any Disposable]) {
    insert(builder())
  }

  /// Adds `disposables` to the bag.
  public func insert(_ disposables: [any Disposable]) {
    if Tracing.isInstalled {
      for disposable in disposables { Tracing.parked(disposable, in: self) }
    }
    let disposeNow = state.withLock { state -> Bool in
      if state.isDisposed { return true }
      state.disposables.append(contentsOf: disposables)
      return false
    }
    if disposeNow { for disposable in disposables { disposable.dispose() } }
  }

  deinit {
    let all = state.withLock { state -> [any Disposable] in
      state.isDisposed = true
      defer { state.disposables = [] }
      return state.disposables
    }
    for disposable in all { disposable.dispose() }
  }

  /// Builds a list of disposables from statements.
  @resultBuilder
  public enum DisposableBuilder {
    /// Collects the statements' disposables.
    public static func buildBlock(_ disposables: any Disposable...) -> [any Disposable] {
      disposables
    }
  }
}

extension Disposable {
  /// Adds this disposable to `bag`, which disposes it when deallocated.
  public func disposed(by bag: DisposeBag) {
    bag.insert(self)
  }
}
