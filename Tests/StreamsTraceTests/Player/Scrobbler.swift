import Streams

/// Reports each track played, and skips the tracks it has seen too often: the cycle, since a skip
/// changes the queue, which changes the track playing.
final class Scrobbler {
  private(set) var reported: [String] = []
  let bag = DisposeBag()

  init(player: NowPlaying, queue: PlaybackQueue) {
    player.title
      .subscribe(onNext: { [weak self] title in
        self?.reported.append(title)
        if title.contains("jingle") { queue.skipped.accept(String(title.dropFirst(2))) }
      })
      .disposed(by: bag)
  }
}
