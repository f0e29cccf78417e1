/// One thing the deliverer of a `window` subscription does, in the order the state machine
/// (``WindowStateMachine``) accepted it.
enum WindowStep<Element> {
  /// Emit the first window.
  case open(Observable<Element>)
  /// Send an element to the open window.
  case element(Element, to: PublishSubject<Element>)
  /// Complete the window that ends and emit the next one.
  case rollover(closing: PublishSubject<Element>, opening: Observable<Element>)
  /// End the open window with the source's terminal event (`nil`: completion).
  case close(PublishSubject<Element>, error: (any Error)?)
}
