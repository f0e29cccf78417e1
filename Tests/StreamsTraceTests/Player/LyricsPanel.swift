import Streams

/// A panel that puts its subscription in the player's bag: when the panel closes, the
/// subscription stays (the leak).
final class LyricsPanel {
  private(set) var shown: [String] = []

  init(player: NowPlaying) {
    player.title
      .subscribe(with: self, onNext: { panel, title in panel.shown.append(title) })
      .disposed(by: player.bag)
  }
}
