/// The source's observer for one `groupBy` subscription: performs what ``GroupByStateMachine``
/// decides.
///
/// No lock: the machine is only touched by `on`, which the source calls serially (the event
/// grammar). Group subscriptions made from other threads touch only the group's subject and the
/// reference count, which guard their own state.
final class GroupBySink<Key: Hashable, Element> {
  private let output: GuardedSink<GroupedObservable<Key, Element>>
  private let refCount: RefCountDisposable
  private let subscription: SingleAssignmentDisposable
  private let keySelector: (Element) throws -> Key
  private let sourceID: UInt64
  private let file: StaticString
  private let line: UInt
  private var machine = GroupByStateMachine<Key, Element>()

  init(
    output: GuardedSink<GroupedObservable<Key, Element>>, refCount: RefCountDisposable,
    subscription: SingleAssignmentDisposable, keySelector: @escaping (Element) throws -> Key,
    sourceID: UInt64, file: StaticString, line: UInt
  ) {
    self.output = output
    self.refCount = refCount
    self.subscription = subscription
    self.keySelector = keySelector
    self.sourceID = sourceID
    self.file = file
    self.line = line
  }

  func on(_ event: Event<Element>) {
    switch event {
    case .next(let element):
      if machine.hasEnded { return }
      let key: Key
      do {
        key = try keySelector(element)
      } catch {
        end(machine.ended(), with: .error(error))
        return
      }
      switch machine.received(key: key) {
      case .drop:
        break
      case .forward(let group):
        group.on(.next(element))
      case .open(let group):
        output.on(.next(GroupedObservable(key: key, source: self.group(group))))
        group.on(.next(element))
      }
    case .error(let error):
      end(machine.ended(), with: .error(error))
    case .completed:
      end(machine.ended(), with: .completed)
    }
  }

  /// A group's sequence: each subscription keeps the source subscribed until it is disposed.
  private func group(_ subject: PublishSubject<Element>) -> Observable<Element> {
    let refCount = self.refCount
    let elements = subject.asObservable()
    return Observable(kind: "groupBy.group", upstreams: [sourceID], file: file, line: line) {
      observer in
      let handle = refCount.retain()
      return Disposables.create(handle, elements.subscribeNested(observer))
    }
  }

  /// Sends `event` to every group, then ends the outer sequence and disposes the source.
  private func end(
    _ action: GroupByStateMachine<Key, Element>.EndAction, with event: Event<Element>
  ) {
    switch action {
    case .none:
      break
    case .end(let groups):
      let outer: Event<GroupedObservable<Key, Element>>
      switch event {
      case .error(let error): outer = .error(error)
      case .next, .completed: outer = .completed
      }
      for group in groups { group.on(event) }
      output.on(outer)
      subscription.dispose()
    }
  }
}
