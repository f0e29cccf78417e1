import Streams

/// The player: the track playing, taken from the head of the queue.
final class NowPlaying {
  let track = BehaviorRelay<String?>(value: nil)
  let title: Observable<String>
  let bag = DisposeBag()

  init(queue: PlaybackQueue) {
    title =
      track
      .compactMap { $0 }
      .map { "♪ \($0)" }
    queue.upNext
      .map(\.first)
      .bind(to: track)
      .disposed(by: bag)
  }
}
