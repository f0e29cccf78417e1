/// The actions of ``MergeStateMachine``: what its transitions hand the sink to perform once the
/// lock is released, and the values they carry.
extension MergeStateMachine {
  /// An inner sequence scheduled for the start loop, with its number.
  @usableFromInline
  struct ScheduledInner {
    @usableFromInline let id: Int
    @usableFromInline let source: Observable<Element>

    @inlinable
    init(id: Int, source: Observable<Element>) {
      self.id = id
      self.source = source
    }
  }

  /// What to do when the outer sequence's `subscribe` returned, or an inner one's.
  @usableFromInline
  enum SubscribedAction {
    /// Keep it: the machine holds it until it must be disposed.
    case keep
    /// Dispose it now: its sequence already completed, or the merge was disposed.
    case dispose(any Disposable)
  }

  /// What to do once a static merge scheduled its sources.
  @usableFromInline
  enum StartAction {
    /// Run the start loop, which subscribes to the sources in order.
    case runLoop
    /// There is no source: drain `completion` (`nil` when it was queued for the deliverer).
    case complete(Event<Element>?)
  }

  /// What `flatMapFirst` does with an element of the outer sequence.
  @usableFromInline
  enum AdmitAction {
    /// Drop it: an inner sequence runs, or the merge ended.
    case drop
    /// Run the selector: the slot is reserved for its inner sequence.
    case select
  }

  /// What to do with an inner sequence that arrived.
  @usableFromInline
  enum InnerArrivedAction {
    /// Nothing now: the merge ended, or the sequence waits for a slot, or the thread that owns
    /// the start loop subscribes to it.
    case none
    /// Run the start loop: the sequence was scheduled and the caller owns the loop.
    case runLoop
  }

  /// What to do with a sequence that emits one element and completes during `subscribe`
  /// (`just`).
  @usableFromInline
  enum ImmediateArrivedAction {
    /// Nothing now, as for ``InnerArrivedAction/none``.
    case none
    /// Run the start loop, as for ``InnerArrivedAction/runLoop``.
    case runLoop
    /// Its element was accepted without subscribing, and the caller owns the start loop: it
    /// delivers `first` if it is not `nil` (otherwise drains), then asks for more
    /// (``nextOrImmediateCompleted()``) or completes it (``immediateCompleted()``).
    case deliver(first: Event<Element>?)
  }

  /// What to do when a sequence accepted by ``immediateArrived(_:element:)`` completed.
  @usableFromInline
  enum ImmediateCompletedAction {
    /// Nothing: the start loop is released (or the merge ended).
    case none
    /// Go on with the start loop: other inner sequences were scheduled meanwhile.
    case runLoop
    /// The merge completes: drain `completion` (`nil` when it was queued for the deliverer).
    /// The start loop is released.
    case complete(Event<Element>?)
  }

  /// What the deliverer of a `just`'s element does next.
  @usableFromInline
  enum ImmediateNextAction {
    /// Deliver `event`, which was queued behind the element, then ask again.
    case deliver(Event<Element>)
    /// Nothing was queued: the delivery claim is released and the sequence completed; perform
    /// `completion`.
    case completed(ImmediateCompletedAction)
  }

  /// What the start loop does next.
  @usableFromInline
  enum NextInnerAction {
    /// Stop: nothing is scheduled (the loop is released), or the merge ended.
    case stop
    /// Subscribe to `source`, numbered `id`, then ask again.
    case subscribe(id: Int, source: Observable<Element>)
  }

  /// What to do with an element or an error.
  @usableFromInline
  enum ForwardAction {
    /// Nothing: the merge ended.
    case drop
    /// Drain `event`: deliver it now, or, when `nil`, let the drain wait for this sender's turn
    /// (the outbox queued it for the deliverer).
    case drain(Event<Element>?)
  }

  /// What to do when the outer sequence or an inner one completed.
  @usableFromInline
  enum CompletedAction {
    /// Nothing: the completed sequence's subscription has not returned yet (it is disposed when
    /// it does) or was already released.
    case none
    /// Dispose the completed sequence's subscription; the merge goes on.
    case dispose(any Disposable)
    /// An inner sequence completed and a waiting one took its slot: dispose the completed
    /// sequence's subscription, if it returned, then run the start loop.
    case runLoop(disposing: (any Disposable)?)
    /// The merge completes: dispose the completed sequence's subscription, if it returned, then
    /// drain `completion` (`nil` when it was queued for the deliverer).
    case complete(disposing: (any Disposable)?, completion: Event<Element>?)
  }

  /// What to do when the subscription ends.
  @usableFromInline
  enum DisposeAction {
    /// Dispose `subscriptions` (the outer one first, then the inner ones in subscription order),
    /// then release what will not be delivered or started: `queued` events, `waiting` sequences
    /// (for a slot) and `scheduled` ones (for the start loop).
    case dispose(
      subscriptions: [any Disposable], queued: RingQueue<Event<Element>>,
      waiting: RingQueue<Observable<Element>>, scheduled: RingQueue<ScheduledInner>)
  }
}

extension MergeStateMachine.ImmediateArrivedAction {
  /// The sequence takes the path of any other inner sequence.
  @inlinable
  init(_ action: MergeStateMachine<Element>.InnerArrivedAction) {
    switch action {
    case .none: self = .none
    case .runLoop: self = .runLoop
    }
  }
}
