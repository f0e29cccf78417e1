import Streams
import StreamsTest
import StreamsTrace
import Testing

/// Owners of terminal subscriptions found through the `DisposeBag` that keeps them, and named
/// with `owned(by:)`.
@Suite("Trace recorder: owners from bags", .serialized)
struct TraceRecorderOwnerTests {
  @Test("a subscription kept in a bag records the bag; its owner stays the subscribing type")
  func bagOwner() throws {
    var inbox: Inbox?
    var toast: Toast?
    let graph = TraceRecorder.record {
      inbox = Inbox()
      toast = Toast(inbox: inbox!, annotated: false)
    }
    let subscriptions = graph.subscriptions.sorted { $0.id < $1.id }
    #expect(
      subscriptions.map(\.file) == [
        "StreamsTraceTests/Inbox.swift", "StreamsTraceTests/Toast.swift",
      ])
    let bag = TraceGraph.Bag(file: "StreamsTraceTests/Inbox.swift", line: 6, owner: "Inbox")
    #expect(subscriptions.map(\.bag) == [bag, bag])
    // The toast subscribed and the inbox's bag keeps the subscription: the bag says who holds it.
    #expect(subscriptions.map(\.owner) == ["Inbox", "Toast"])
    let toastNode = try #require(graph.nodes.first { $0.file == "StreamsTraceTests/Toast.swift" })
    #expect(toastNode.owner == "Toast")
    withExtendedLifetime((inbox, toast)) {}
  }

  @Test("a subscription kept in another type's bag is listed as held elsewhere, not as a leak")
  func heldElsewhere() throws {
    var inbox: Inbox?
    let graph = TraceRecorder.record {
      inbox = Inbox()
      var toast: Toast? = Toast(inbox: inbox!, annotated: false)
      inbox!.messages.onNext("hello")
      #expect(toast?.shown == ["hello"])
      toast = nil
    }
    #expect(graph.leaks() == [])
    let held = graph.heldElsewhere()
    #expect(held.map(\.madeBy) == ["Toast"])
    #expect(held.map(\.file) == ["StreamsTraceTests/Toast.swift"])
    let first = try #require(held.first)
    #expect(first.bag.owner == "Inbox")
    #expect(
      first.description.hasSuffix(
        "is kept by Inbox's bag (StreamsTraceTests/Inbox.swift:6), so it lives as long as Inbox"),
      "\(first)")
    #expect(graph.summary.contains("leaks: 0; kept in another type's bag: 1"), "\(graph.summary)")
    withExtendedLifetime(inbox) {}
  }

  @Test("owned(by:) names the owner, and the subscription outliving it is a leak")
  func ownedBy() throws {
    var inbox: Inbox?
    let graph = TraceRecorder.record {
      inbox = Inbox()
      var toast: Toast? = Toast(inbox: inbox!, annotated: true)
      withExtendedLifetime(toast) {}
      toast = nil
    }
    let leaks = graph.leaks()
    #expect(leaks.map(\.owner) == ["Toast"])
    #expect(leaks.map(\.file) == ["StreamsTraceTests/Toast.swift"])
    // Kept by the inbox's bag all the same.
    let subscription = try #require(
      graph.subscriptions.first { $0.id == leaks.first?.subscription })
    #expect(subscription.bag?.owner == "Inbox")
    withExtendedLifetime(inbox) {}
  }

  @Test("without a tracer, owned(by:) returns the subscription and changes nothing")
  func ownedByUntraced() {
    let subject = PublishSubject<Int>()
    var received: [Int] = []
    let subscription = subject.subscribe(onNext: { received.append($0) })
    let owner = Inbox()
    #expect(subscription.owned(by: owner) === subscription)
    subject.onNext(1)
    subscription.dispose()
    subject.onNext(2)
    #expect(received == [1])
  }

  @Test("a traced subscription kept in a bag lets go of its closures when it ends")
  func bagLifetime() {
    final class Probe {}
    weak var weakProbe: Probe?
    let bag = DisposeBag()
    let subject = PublishSubject<Int>()
    _ = TraceRecorder.record {
      let probe = Probe()
      weakProbe = probe
      subject.subscribe(onNext: { _ in withExtendedLifetime(probe) {} }).disposed(by: bag)
      #expect(weakProbe != nil)
      subject.onCompleted()
    }
    // The bag still holds the subscription's handle, but not the closure.
    #expect(weakProbe == nil)
    withExtendedLifetime(bag) {}
  }

  @Test("the bag of a subscription survives a dump and a read")
  func dumpRoundTrip() throws {
    var inbox: Inbox?
    let graph = TraceRecorder.record {
      inbox = Inbox()
      _ = Toast(inbox: inbox!, annotated: false)
    }
    let read = try TraceGraph(dump: graph.dump())
    #expect(read.subscriptions.map(\.bag) == graph.subscriptions.map(\.bag))
    #expect(read.heldElsewhere() == graph.heldElsewhere())
    withExtendedLifetime(inbox) {}
  }
}
