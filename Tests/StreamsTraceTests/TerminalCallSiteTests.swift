import Streams
import StreamsTrace
import Testing

@Suite("Terminal call sites")
struct TerminalCallSiteTests {
  @Test(
    "bind(to:) an observer or a relay, Infallible's bind(to:) and a trait's subscribe record the caller's line"
  )
  func callSites() throws {
    let source = PublishSubject<Int>()
    let target = PublishSubject<Int>()
    let optional = PublishSubject<Int?>()
    let relay = PublishRelay<Int>()
    let bag = DisposeBag()
    let line = #line
    let graph = TraceRecorder.record {
      source.bind(to: target).disposed(by: bag)  // line + 2
      source.bind(to: optional).disposed(by: bag)  // line + 3
      source.bind(to: relay).disposed(by: bag)  // line + 4
      source.asInfallible(onErrorJustReturn: 0).bind(to: relay).disposed(by: bag)  // line + 5
      Single.just(1).subscribe { _ in }.disposed(by: bag)  // line + 6
      source.onNext(1)
    }
    let terminals = graph.nodes.filter { $0.role == .terminal }.sorted { $0.line < $1.line }
    #expect(
      terminals.map(\.kind) == ["bind(to:)", "bind(to:)", "bind(to:)", "bind(to:)", "subscribe"])
    #expect(terminals.map(\.line) == [2, 3, 4, 5, 6].map { UInt(line + $0) })
    #expect(terminals.allSatisfy { $0.file == "StreamsTraceTests/TerminalCallSiteTests.swift" })
    #expect(graph.summary.contains("files: 1;"))
  }

  @Test("a chain's steps carry the values sent, and no step lacks a file")
  func chainValues() throws {
    let taps = PublishSubject<String>()
    let added = PublishSubject<String>()
    let bag = DisposeBag()
    let graph = TraceRecorder.record {
      taps.map { $0.uppercased() }.bind(to: added).disposed(by: bag)
      added.subscribe(onNext: { _ in }).disposed(by: bag)
      taps.onNext("coffee")
    }
    let root = try #require(graph.deliveries.first { $0.cause == nil })
    let chain = try #require(graph.chain(of: root.id))
    #expect(chain.steps.contains { $0.contains("next(COFFEE): bind(to:) StreamsTraceTests/") })
    #expect(chain.steps.first?.contains("next(coffee)") == true)
    #expect(chain.files == ["StreamsTraceTests/TerminalCallSiteTests.swift"])
  }
}
