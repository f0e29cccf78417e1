import Streams

/// The `transform(input:)` pattern most MVVM + Rx apps use: a view model turns the screen's
/// inputs into its outputs, both structs built at the call site.
protocol ViewModelType {
  associatedtype Input
  associatedtype Output
  func transform(input: Input) -> Output
}
