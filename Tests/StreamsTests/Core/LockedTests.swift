import Testing

@testable import Streams

@Suite("Lock")
struct LockTests {
  @Test("the lock guards its state across threads")
  func guardsState() async {
    let counter = Locked(0)
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<4 {
        group.addTask {
          for _ in 0..<1000 { counter.withLock { $0 += 1 } }
        }
      }
    }
    #expect(counter.withLock { $0 } == 4000)
  }

  #if DEBUG && !canImport(Darwin)
    @Test("a re-entered lock stops the program with a message instead of hanging")
    func reentryStops() async {
      let result = await #expect(
        processExitsWith: .failure, observing: [\.standardErrorContent]
      ) {
        let locked = Locked(0)
        locked.withLock { _ in locked.withLock { _ in } }
      }
      let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      #expect(message.contains("the lock guarding Int was re-entered"))
    }
  #endif
}
