import Streams

/// One typed response of the top screen's endpoint: each goes to one content block.
enum BlockResponse: Sendable {
  case headline(HeadlineBlock)
  case offers(OffersBlock)
  case delta(DeltaBlock)

  var headline: HeadlineBlock? {
    if case .headline(let block) = self { return block } else { return nil }
  }

  var offers: OffersBlock? {
    if case .offers(let block) = self { return block } else { return nil }
  }

  var delta: DeltaBlock? {
    if case .delta(let block) = self { return block } else { return nil }
  }
}

/// A fake API: answers each request on its scheduler after `latency`, with a list of responses
/// that changes with each request.
final class TopAPI: Sendable {
  let scheduler: any SchedulerType
  let latency: RxTimeInterval
  /// The number of requests made so far (requests come from one pipeline, one at a time).
  let requests = BehaviorRelay(value: 0)

  init(scheduler: any SchedulerType, latency: RxTimeInterval = .milliseconds(100)) {
    self.scheduler = scheduler
    self.latency = latency
  }

  func fetchBlocks() -> Single<[BlockResponse]> {
    Single.create { [self] single in
      let number = requests.value + 1
      requests.accept(number)
      return scheduler.scheduleRelative((), dueTime: latency) { _ in
        single(.success(Self.responses(number)))
        return Disposables.create()
      }
    }
  }

  /// Request 1 fills every block; request 2 changes the offers and the delta block only.
  static func responses(_ number: Int) -> [BlockResponse] {
    [
      .headline(HeadlineBlock(title: "Today", subtitle: "Your picks")),
      .offers(OffersBlock(offers: number == 1 ? ["coffee", "tea"] : ["coffee", "tea", "cake"])),
      .delta(DeltaBlock(message: "refresh #\(number)")),
    ]
  }
}
