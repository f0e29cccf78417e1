/// The sink of an operator with several sources (merge, switch, concat, the two combines,
/// withLatestFrom, amb): the ``SinkLifecycle`` word first, and the upstream subscriptions in the
/// state machine behind its lock, since there are several and they come and go while the
/// subscription runs.
///
/// The word makes the teardown run once, whoever disposes first: the drain that delivered the
/// terminal event, or the caller. Merge and switch also mark it stopped when their machine ends,
/// and read it before calling their selector, so that an ended sequence drops the outer elements
/// without the lock; for the others ``SinkLifecycle/isActive`` means only "not disposed yet", as
/// their machine already drops what comes after the end, under the lock it takes anyway. The
/// machine decides everything else: which events pass, which subscriptions to dispose, and what
/// to release after the lock.
///
/// A conforming class declares `var flags: Int` as its first stored property (`@usableFromInline`
/// in an inlinable class, set to 0 in `init`) and writes ``tearDown()``; ``dispose()`` is written
/// here.
@usableFromInline
protocol MultiSourceSink: SerialOutboxOwner, SinkLifecycle, Disposable {
  /// Runs the machine's dispose transition and performs its action after the lock: disposes the
  /// upstream subscriptions it hands back and releases the events and values it held. Called
  /// once, by ``dispose()``.
  func tearDown()
}

extension MultiSourceSink {
  /// Marks the sink disposed and, the first time, tears it down.
  @inlinable
  func dispose() {
    if markDisposed() & SinkLifecycleBits.disposed == 0 { tearDown() }
  }
}
