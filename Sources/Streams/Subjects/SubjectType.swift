/// A type that is both an observable and an observer.
public protocol SubjectType: ObservableType {
  /// The observer side's type.
  associatedtype Observer: ObserverType

  /// The observer side of the subject.
  func asObserver() -> Observer
}
