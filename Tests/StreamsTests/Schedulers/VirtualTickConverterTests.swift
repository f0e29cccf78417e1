import Foundation
import Streams
import StreamsTest
import Testing

@Suite("VirtualTickConverter")
struct VirtualTickConverterTests {
  @Test("ticks of resolution seconds, rounded to the nearest tick")
  func conversions() {
    let converter = VirtualTickConverter(resolution: 0.001)
    #expect(converter.convertFromVirtualTime(1500) == Date(timeIntervalSince1970: 1.5))
    #expect(converter.convertToVirtualTime(Date(timeIntervalSince1970: 1.5004)) == 1500)
    #expect(converter.convertToVirtualTime(Date(timeIntervalSince1970: 1.5006)) == 1501)
    #expect(converter.convertFromVirtualTimeInterval(250) == 0.25)
    #expect(converter.convertToVirtualTimeInterval(0.2504) == 250)
    #expect(converter.offsetVirtualTime(10, offset: 5) == 15)
    #expect(converter.compareVirtualTime(1, 2) == .lessThan)
    #expect(converter.compareVirtualTime(2, 2) == .equal)
    #expect(converter.compareVirtualTime(3, 2) == .greaterThan)
    #expect(converter.ticks(.microseconds(1600)) == 2)
    #expect(converter.ticks(.never) == Int.max)
    #expect(converter.virtualTime(40, advancedBy: .milliseconds(10)) == 50)
    #expect(converter.virtualTime(40, advancedBy: .never) == Int.max)
  }

  @Test("TestScheduler is a VirtualTimeScheduler over TestSchedulerVirtualTimeConverter")
  func testSchedulerConverter() {
    let scheduler: VirtualTimeScheduler<TestSchedulerVirtualTimeConverter> = TestScheduler(
      initialClock: 0, resolution: 0.5)
    #expect(scheduler.converter == VirtualTickConverter(resolution: 0.5))
    #expect(VirtualTimeScheduler().converter == VirtualTickConverter(resolution: 1))
  }

  @Test("a resolution that is not positive stops with a message")
  func misuse() async {
    await #expect(processExitsWith: .failure) {
      _ = VirtualTickConverter(resolution: 0)
    }
  }
}
