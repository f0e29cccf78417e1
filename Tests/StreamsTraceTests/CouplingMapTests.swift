import StreamsTest
import StreamsTrace
import Testing

@Suite("Coupling map")
struct CouplingMapTests {
  @Test("one box per owner, one edge per pair with its subscriptions and sends")
  func smallMap() throws {
    let map = PlayerFixture().graph.couplingMap()
    let names = map.owners.map(\.name)
    #expect(names.contains("PlaybackQueue"))
    #expect(names.contains("NowPlaying"))
    let queueToPlayer = try #require(
      map.links.first { $0.from == "PlaybackQueue" && $0.to == "NowPlaying" })
    #expect(queueToPlayer.subscriptions >= 1)
    let skip = try #require(map.links.first { $0.from == "Scrobbler" && $0.to == "PlaybackQueue" })
    #expect(skip.sends == 1)
    #expect(skip.onCycle)
    #expect(map.owners.first { $0.name == "LyricsPanel" }?.leaked == 1)
    #expect(Set(map.links.map { "\($0.from)>\($0.to)" }).count == map.links.count)
  }

  @Test("the generated 200-screen app: 13,023 nodes in one box per owner")
  func generatedApp() throws {
    let graph = GeneratedAppTrace.make(screens: 200, subscriptionsPerScreen: 25)
    #expect(graph.nodes.count > 10_000)
    #expect(graph.edges.count > 20_000)
    let map = graph.couplingMap()
    #expect(map.owners.count == 210)
    #expect(map.links.count < 1_000)
    #expect(map.owners.filter { $0.onCycle > 0 }.count >= 3)
    #expect(map.owners.first { $0.name == "Screen3ViewModel" }?.leaked == 1)
    let dot = map.dot()
    try ExportFiles.write(dot, as: "coupling-generated-200.dot")
    try ExportFiles.write(graph.dump(), as: "generated-200.dump.json")
    #expect(dot.split(separator: "\n").count == 2 + 3 + map.owners.count + map.links.count + 2)
  }
}
