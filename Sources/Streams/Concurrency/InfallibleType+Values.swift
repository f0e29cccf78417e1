extension InfallibleType where Element: Sendable {
  /// The sequence's elements as a non-throwing `AsyncSequence`: lossless and unbounded, as
  /// RxSwift's `Infallible.values`.
  ///
  /// ```swift
  /// let names = Infallible.just("ada")
  /// for await name in names.values { print(name) }
  /// // Prints "ada"
  /// ```
  ///
  /// The loop needs no `try`: an `Infallible` never fails. See
  /// ``ObservableConvertibleType/values(bufferingPolicy:onDrop:)`` for every guarantee.
  public var values: ObservableValues<Element, Never> {
    ObservableValues(source: asObservable(), policy: .unbounded, onDrop: nil)
  }

  /// The sequence's elements as a non-throwing `AsyncSequence` buffered by `bufferingPolicy`; see
  /// ``ObservableConvertibleType/values(bufferingPolicy:onDrop:)``.
  public func values(
    bufferingPolicy: AsyncBufferingPolicy, onDrop: (@Sendable (Element) -> Void)? = nil
  ) -> ObservableValues<Element, Never> {
    ObservableValues(source: asObservable(), policy: bufferingPolicy, onDrop: onDrop)
  }
}

extension SharedSequenceConvertibleType where Element: Sendable {
  /// A `Driver`'s or `Signal`'s elements as a non-throwing `AsyncSequence`: lossless and
  /// unbounded.
  ///
  /// ```swift
  /// for await title in viewModel.title.values {  // a Driver<String>
  ///   label.text = title
  /// }
  /// ```
  ///
  /// The shared sequence delivers on the main thread; a loop on the main actor is resumed there
  /// without a hop per element. See ``ObservableConvertibleType/values(bufferingPolicy:onDrop:)``
  /// for every guarantee.
  public var values: ObservableValues<Element, Never> {
    ObservableValues(source: asObservable(), policy: .unbounded, onDrop: nil)
  }

  /// A `Driver`'s or `Signal`'s elements as a non-throwing `AsyncSequence` buffered by
  /// `bufferingPolicy`; `.bufferingNewest(1)` suits UI state. See
  /// ``ObservableConvertibleType/values(bufferingPolicy:onDrop:)``.
  public func values(
    bufferingPolicy: AsyncBufferingPolicy, onDrop: (@Sendable (Element) -> Void)? = nil
  ) -> ObservableValues<Element, Never> {
    ObservableValues(source: asObservable(), policy: bufferingPolicy, onDrop: onDrop)
  }
}
