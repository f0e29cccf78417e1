import StreamsTest
import StreamsTrace
import Testing

@Suite("The HTML report")
struct TraceGraphReportTests {
  @Test("one offline page: coupling map, cycles, leaks, chains with values, a section per owner")
  func sections() throws {
    let graph = PlayerFixture().graph
    let html = graph.htmlReport(title: "Player <test>")
    #expect(html.hasPrefix("<!DOCTYPE html>"))
    #expect(html.contains("<title>Player &lt;test&gt;</title>"))
    for anchor in ["coupling", "cycles", "leaks", "chains", "owners"] {
      #expect(html.contains("<section id=\"\(anchor)\">"), "\(anchor)")
    }
    #expect(html.contains("<img id=\"map\" src=\"coupling.svg\""))
    #expect(html.contains("to break it, remove this send:"))
    #expect(html.contains("leak: LyricsPanel is gone"))
    #expect(html.contains("NowPlaying.title (map "))
    #expect(html.contains("id=\"owner-PlaybackQueue\""))
    #expect(html.contains("next(♪ jingle)") || html.contains("next(jingle)"))
    // No network: nothing is fetched from elsewhere.
    #expect(!html.contains("http://") && !html.contains("https://"))
    #expect(html.contains("<script>") && html.contains("getElementById('search')"))
  }

  @Test("user text is escaped: a hostile name cannot break out of the page")
  func escaping() {
    let graph = TraceGraph(nodes: [
      .init(
        id: 1, kind: "PublishSubject", role: .subject, file: "A/<script>.swift", line: 1,
        owner: "<script>alert(1)</script>", name: "\"'&<>")
    ])
    let html = graph.htmlReport()
    #expect(!html.contains("<script>alert(1)"))
    #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
    #expect(html.contains("&quot;&#39;&amp;&lt;&gt;"))
    #expect(html.components(separatedBy: "<script>").count == 2)  // the page's own only
  }

  @Test("the generated 200-screen app: a section per owner, the busiest pairs first")
  func generated() {
    let html = GeneratedAppTrace.make(screens: 200, subscriptionsPerScreen: 25).htmlReport()
    #expect(html.components(separatedBy: "class=\"item owner\"").count - 1 == 210)
    #expect(html.contains("… and "))
  }
}
