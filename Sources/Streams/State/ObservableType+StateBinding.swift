import StreamsState

extension ObservableType where Element: Sendable {
  /// Writes every element into `cell` on the main actor, until the returned disposable is
  /// disposed, the sequence completes, or the cell is deinitialized.
  ///
  /// ```swift
  /// viewModel.contentAlpha
  ///   .bind(to: uiState.contentAlpha)
  ///   .disposed(by: bag)
  /// ```
  ///
  /// An element that arrives on the main queue is written at once; one that arrives elsewhere is
  /// written on the main queue's next turn, after the binding's earlier elements. The binding
  /// holds the cell weakly and the cell owns the binding: when the cell goes, the binding ends.
  /// An error reaching the binding stops the program with a message naming this call: bind a
  /// sequence that cannot fail (`Infallible`, `Driver`, or `catchAndReturn` before binding).
  @inlinable
  public func bind(
    to cell: StateCell<Element>, file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    asObservable().bindState(to: cell, file: file, line: line) { $0 }
  }

  /// Writes every element, as an optional, into `cell`; see
  /// ``bind(to:file:line:)-(StateCell<Self.Element>,_,_)``.
  @inlinable
  public func bind(
    to cell: StateCell<Element?>, file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    asObservable().bindState(to: cell, file: file, line: line) { Optional($0) }
  }

  /// Writes every element into `object[keyPath: keyPath]` on the main actor: for the app's own
  /// main-actor state types (an `@Observable` class, an `ObservableObject`).
  ///
  /// ```swift
  /// @MainActor final class Header { var title = "" }
  ///
  /// titles.bind(to: header, \.title).disposed(by: bag)
  /// ```
  ///
  /// Writes happen as for a cell (see ``bind(to:file:line:)-(StateCell<Self.Element>,_,_)``). The
  /// binding holds `object` weakly; since an arbitrary object cannot own it, the binding ends with
  /// the first element that finds the object gone (or when disposed: keep the disposable in a bag
  /// the object owns to end it with the object).
  @MainActor
  @inlinable
  public func bind<Object: AnyObject & Sendable>(
    to object: Object, _ keyPath: ReferenceWritableKeyPath<Object, Element>,
    file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    StateBinding.subscribe(asObservable(), file: file, line: line, attach: nil) {
      [weak object] element in
      guard let object else { return false }
      object[keyPath: keyPath] = element
      return true
    }
  }
}

extension Observable where Element: Sendable {
  /// The one binding path into a cell: every `bind(to:)`, `drive` and `emit(to:)` of a cell ends
  /// here.
  @inlinable
  func bindState<Stored>(
    to cell: StateCell<Stored>, file: StaticString, line: UInt,
    _ transform: @escaping @Sendable (Element) -> Stored
  ) -> any Disposable {
    StateBinding.subscribe(
      self, file: file, line: line,
      attach: StateBinding.attachment(to: cell),
      apply: { [weak cell] element in
        guard let cell else { return false }
        cell.value = transform(element)
        return true
      })
  }
}

extension InfallibleType where Element: Sendable {
  /// Writes every element into `cell` on the main actor; see
  /// ``ObservableType/bind(to:file:line:)-(StateCell<Self.Element>,_,_)``.
  ///
  /// ```swift
  /// counts.bind(to: uiState.count).disposed(by: bag)
  /// ```
  @inlinable
  public func bind(
    to cell: StateCell<Element>, file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    asObservable().bindState(to: cell, file: file, line: line) { $0 }
  }

  /// Writes every element, as an optional, into `cell`.
  @inlinable
  public func bind(
    to cell: StateCell<Element?>, file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    asObservable().bindState(to: cell, file: file, line: line) { Optional($0) }
  }
}

extension SharedSequenceConvertibleType
where SharingStrategy == DriverSharingStrategy, Element: Sendable {
  /// Writes every element into `cell`; a driver delivers on the main thread, so each write is
  /// synchronous.
  ///
  /// ```swift
  /// viewModel.header.drive(uiState.header).disposed(by: bag)
  /// ```
  @MainActor
  @inlinable
  public func drive(
    _ cell: StateCell<Element>, file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    asObservable().bindState(to: cell, file: file, line: line) { $0 }
  }

  /// Writes every element, as an optional, into `cell`.
  @MainActor
  @inlinable
  public func drive(
    _ cell: StateCell<Element?>, file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    asObservable().bindState(to: cell, file: file, line: line) { Optional($0) }
  }
}

extension SharedSequenceConvertibleType
where SharingStrategy == SignalSharingStrategy, Element: Sendable {
  /// Writes every element into `cell`; a signal delivers on the main thread.
  ///
  /// ```swift
  /// viewModel.lastTap.emit(to: uiState.lastTap).disposed(by: bag)
  /// ```
  @MainActor
  @inlinable
  public func emit(
    to cell: StateCell<Element>, file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    asObservable().bindState(to: cell, file: file, line: line) { $0 }
  }

  /// Writes every element, as an optional, into `cell`.
  @MainActor
  @inlinable
  public func emit(
    to cell: StateCell<Element?>, file: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    asObservable().bindState(to: cell, file: file, line: line) { Optional($0) }
  }
}
