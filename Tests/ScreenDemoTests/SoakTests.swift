import Testing

@testable import ScreenDemo

@Suite("Soak verdict")
struct SoakTests {
  private func samples(_ resident: [Int]) -> [SoakSample] {
    resident.enumerated().map { index, kib in
      SoakSample(
        seconds: index * 10, iterations: index * 100, residentKiB: kib, nodes: 31, edges: 56,
        liveObjects: 18)
    }
  }

  @Test("warm-up is left out and noise within 1 MiB or 2 % is flat")
  func flat() {
    let verdict = soakVerdict(samples([20_000, 40_000] + Array(repeating: 60_000, count: 8)))
    #expect(verdict.flat)
    let noisy = soakVerdict(
      samples([50_000, 60_000, 60_500, 59_800, 60_900, 61_000, 60_200, 61_100]))
    #expect(noisy.flat, "\(noisy.text)")
  }

  @Test("a steady climb after warm-up is growing")
  func growing() {
    let verdict = soakVerdict(samples((0..<20).map { 30_000 + $0 * 500 }))
    #expect(!verdict.flat)
    #expect(verdict.text.contains("allowed 1024 KiB"), "\(verdict.text)")
  }

  @Test("too few samples give no verdict of flat")
  func tooFew() {
    #expect(!soakVerdict(samples([1, 1, 1])).flat)
  }

  @Test("the resident set size reads from /proc on Linux")
  func resident() throws {
    #if os(Linux)
      let kib = try #require(residentKiB())
      #expect(kib > 0)
    #endif
  }
}
