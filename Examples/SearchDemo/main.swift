import Streams

let subject = PublishSubject<String>()
_ = subject.map { $0.uppercased() }.subscribe(onNext: { print($0) })
subject.onNext("placeholder until the search demo lands")
