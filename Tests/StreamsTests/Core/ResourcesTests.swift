import Streams
import Testing

@Suite("Resources", .serialized)
struct ResourcesTests {
  @Test("a finished or disposed chain leaves no live Streams objects behind")
  func noLeaks() {
    let before = Resources.total
    do {
      let subject = PublishSubject<Int>()
      let bag = DisposeBag()
      subject.map { $0 + 1 }.filter { $0 > 0 }.subscribe(onNext: { _ in }).disposed(by: bag)
      subject.onNext(1)
      #expect(Resources.total > before)
      let other = subject.subscribe(onNext: { _ in })
      other.dispose()
      subject.onCompleted()
    }
    #expect(Resources.total == before)
  }

  @Test("a live subscription is counted until disposed")
  func counted() {
    let before = Resources.total
    let subject = PublishSubject<Int>()
    let subscription = subject.map { $0 }.subscribe(onNext: { _ in })
    #expect(Resources.total > before)
    subscription.dispose()
    withExtendedLifetime(subject) {}
  }
}
