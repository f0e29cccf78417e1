import StreamsState
import StreamsTest
import Testing

@Suite("RenderProbe", .mainSchedulerExclusive)
struct RenderProbeTests {
  @Test("renders once at init")
  @MainActor
  func rendersAtInit() async {
    let cell = StateCell("a")
    var runs = 0
    let probe = RenderProbe {
      runs += 1
      return cell.value
    }
    #expect(runs == 1)
    #expect(probe.renders == 1)
    #expect(probe.outputs == ["a"])
    #expect(probe.latest == "a")
    #expect(probe.invalidations == 0)
    await RenderProbe<String>.nextTurn()
    #expect(probe.renders == 1, "nothing changed")
  }

  @Test("re-renders on the next main-queue turn after a change of what it read")
  @MainActor
  func rerendersNextTurn() async {
    let cell = StateCell("a")
    let probe = RenderProbe { cell.value }
    cell.value = "b"
    #expect(probe.renders == 1, "not during the turn that made the change")
    await RenderProbe<String>.nextTurn()
    #expect(probe.renders == 2)
    #expect(probe.invalidations == 1)
    #expect(probe.outputs == ["a", "b"])
    // The re-render tracks again.
    cell.value = "c"
    await RenderProbe<String>.nextTurn()
    #expect(probe.outputs == ["a", "b", "c"])
    #expect(probe.invalidations == 2)
  }

  @Test("the changes of one turn give one re-render, which reads the latest value")
  @MainActor
  func oneRenderPerTurn() async {
    let cell = StateCell(0)
    let probe = RenderProbe { cell.value }
    cell.value = 1
    cell.value = 2
    cell.value = 3
    await RenderProbe<Int>.nextTurn()
    await RenderProbe<Int>.nextTurn()
    #expect(probe.outputs == [0, 3])
    #expect(probe.invalidations == 1)
  }

  @Test("a change of another cell does not re-render")
  @MainActor
  func otherCell() async {
    let alpha = StateCell("title")
    let beta = StateCell(0)
    let probe = RenderProbe { alpha.value }
    beta.value = 1
    await RenderProbe<String>.nextTurn()
    #expect(probe.renders == 1)
    #expect(probe.invalidations == 0)
    alpha.value = "other"
    await RenderProbe<String>.nextTurn()
    #expect(probe.renders == 2)
  }

  @Test("tracks what the latest render read")
  @MainActor
  func tracksLatestReads() async {
    let showsCount = StateCell(false)
    let title = StateCell("t")
    let count = StateCell(0)
    let probe = RenderProbe { showsCount.value ? "\(count.value)" : title.value }
    showsCount.value = true
    await RenderProbe<String>.nextTurn()
    #expect(probe.outputs == ["t", "0"])
    title.value = "u"
    await RenderProbe<String>.nextTurn()
    #expect(probe.renders == 2, "the latest render did not read the title")
    count.value = 5
    await RenderProbe<String>.nextTurn()
    #expect(probe.outputs == ["t", "0", "5"])
  }
}
