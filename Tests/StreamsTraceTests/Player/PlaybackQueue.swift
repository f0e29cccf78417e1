import Streams

/// The play queue: what is up next, and the track skipped to.
final class PlaybackQueue {
  let upNext = BehaviorRelay<[String]>(value: [])
  let skipped = PublishRelay<String>()
  let bag = DisposeBag()

  init() {
    skipped
      .subscribe(onNext: { [upNext] track in
        upNext.accept(upNext.value.filter { $0 != track })
      })
      .disposed(by: bag)
  }
}
