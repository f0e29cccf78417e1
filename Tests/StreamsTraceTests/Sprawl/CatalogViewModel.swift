import Streams

/// The catalog screen's view model: the user picks items; other screens listen.
final class CatalogViewModel {
  let selection = PublishRelay<String>()
}
