import Foundation
import Streams
import StreamsTest
import Testing

@Suite("decode(type:decoder:)")
struct DecodeTests {
  struct Item: Codable, Equatable, Sendable {
    let name: String
  }

  /// A decoder of the app's own: every body decodes as the item named by its text.
  struct TextDecoder: DataDecoder {
    func decode<Decoded: Decodable>(_ type: Decoded.Type, from data: Data) throws -> Decoded {
      let json = try JSONEncoder().encode(Item(name: String(decoding: data, as: UTF8.self)))
      return try JSONDecoder().decode(type, from: json)
    }
  }

  @Test("decodes each element; a body that does not decode fails the sequence and disposes it")
  func decodes() throws {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(210, Data(#"{"name":"tea"}"#.utf8)),
      .next(220, Data(#"{"name":"cake"}"#.utf8)),
      .next(230, Data("oops".utf8)),
      .next(240, Data(#"{"name":"jam"}"#.utf8)),
    ])
    let res = scheduler.start { xs.decode(type: Item.self, decoder: JSONDecoder()) }
    #expect(
      Array(res.events.prefix(2)) == [
        .next(210, Item(name: "tea")), .next(220, Item(name: "cake")),
      ])
    #expect(res.events.count == 3)
    guard case .error(let error) = res.events[2].value else {
      Issue.record("expected an error at 230, got \(res.events)")
      return
    }
    #expect(res.events[2].time == 230)
    #expect(error is DecodingError)
    #expect(xs.subscriptions == [Subscription(200, 230)])
  }

  @Test("PropertyListDecoder and a decoder of the app's own are DataDecoders")
  func decoders() throws {
    let plist = try PropertyListEncoder().encode(Item(name: "scone"))
    let fromPlist = try Observable.just(plist)
      .decode(type: Item.self, decoder: PropertyListDecoder())
      .toBlocking().single()
    #expect(fromPlist == Item(name: "scone"))
    let custom = try Observable.just(Data("bun".utf8))
      .decode(type: Item.self, decoder: TextDecoder())
      .toBlocking().single()
    #expect(custom == Item(name: "bun"))
  }
}
