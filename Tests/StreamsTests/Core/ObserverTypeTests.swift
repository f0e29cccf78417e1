import Streams
import Testing

private final class Recorder<Element>: ObserverType, @unchecked Sendable {
  // Test-only: used from a single thread.
  var events: [Event<Element>] = []
  func on(_ event: Event<Element>) { events.append(event) }
}

private enum TestError: Error { case boom }

@Suite("ObserverType")
struct ObserverTypeTests {
  @Test("onNext, onError and onCompleted send the matching events")
  func conveniences() {
    let recorder = Recorder<Int>()
    recorder.onNext(1)
    recorder.onError(TestError.boom)
    recorder.onCompleted()
    #expect(recorder.events.count == 3)
    #expect(recorder.events[0].element == 1)
    #expect(recorder.events[1].error is TestError)
    #expect(recorder.events[2].isCompleted)
  }

  @Test("AnyObserver forwards to its handler and to a wrapped observer")
  func anyObserver() {
    var received: [Event<Int>] = []
    let observer = AnyObserver<Int> { received.append($0) }
    observer.onNext(1)
    observer.asObserver().onCompleted()
    #expect(received == [.next(1), .completed])

    let recorder = Recorder<Int>()
    let wrapped = AnyObserver(recorder)
    wrapped.onNext(5)
    #expect(recorder.events == [.next(5)])
  }

  @Test("mapObserver transforms before forwarding; a throw becomes an error")
  func mapObserver() {
    let recorder = Recorder<String>()
    let mapped: AnyObserver<Int> = recorder.mapObserver { (value: Int) -> String in
      if value < 0 { throw TestError.boom }
      return "\(value)"
    }
    mapped.onNext(3)
    mapped.onNext(-1)
    #expect(recorder.events.count == 2)
    #expect(recorder.events[0].element == "3")
    #expect(recorder.events[1].error is TestError)
  }
}
