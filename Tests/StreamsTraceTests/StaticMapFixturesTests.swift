import Streams
import StreamsTrace
import Testing

/// The `transform(input:)` fixture (`Signup/`), wired and driven by one user's sign-up.
struct SignupFixture {
  let graph: TraceGraph
  let screen: SignupScreen
  let badge: ProfileBadge

  init() {
    let recorder = TraceRecorder()
    (graph, screen, badge) = Tracing.withTracer(recorder) {
      let session = SessionStore()
      let viewModel = SignupViewModel(session: session)
      let screen = SignupScreen(viewModel: viewModel)
      let badge = ProfileBadge(session: session, screen: screen)
      screen.email.onNext("Ada@example.com")
      screen.password.onNext("correct horse")
      screen.submitTaps.accept(())
      defer { withExtendedLifetime(viewModel) {} }
      return (recorder.graph, screen, badge)
    }
  }
}

/// The recorded fixtures that `Benchmarks/static-map-recall.sh` measures the static map
/// against (`streams-trace diff` of each fixture's map and recording): written to
/// `$STREAMS_EXPORT_DIR` as dumps when it is set.
@Suite("Fixtures of the static map's measure", .serialized)
struct StaticMapFixturesTests {
  @Test("the sign-up fixture ran as written: the session's user came back to the screen")
  func signupRan() {
    let fixture = SignupFixture()
    #expect(fixture.screen.submitEnabled)
    #expect(fixture.badge.text == "ada@example.com")
    // The view model subscribed to the shared result first: the session, then the badge's send
    // into the screen's status ran before the screen's own binding wrote it.
    #expect(fixture.screen.status.value == "Welcome, Ada@example.com")
    let chains = fixture.graph.edges.filter { $0.kind == .chain }
    let names = Dictionary(
      fixture.graph.nodes.map { ($0.id, $0.name ?? "") }, uniquingKeysWith: { first, _ in first })
    let targets = Set(chains.compactMap { names[$0.to] })
    #expect(targets == ["SessionStore.signedIn", "SessionStore.user", "SignupScreen.status"])
  }

  @Test(
    "each fixture's recording reads back from its dump", arguments: ["sprawl", "player", "signup"])
  func dumps(name: String) throws {
    let graph =
      switch name {
      case "sprawl": TraceRecorderTests.Sprawl().graph
      case "player": PlayerFixture().graph
      default: SignupFixture().graph
      }
    let dump = graph.dump()
    #expect(try TraceGraph(dump: dump) == graph)
    try ExportFiles.write(dump, as: "\(name).dump.json")
  }
}
