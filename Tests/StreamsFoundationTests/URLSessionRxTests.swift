import Foundation
import StreamsFoundation
import StreamsTest
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `URLSession.rx` against a real HTTP server on loopback, started by each test.
@Suite("URLSession.rx against a loopback server")
struct URLSessionRxTests {
  struct Items: Decodable, Equatable {
    let items: [Int]
  }

  let server: LoopbackServer
  let session = URLSession(configuration: .ephemeral)

  init() throws {
    // A machine with an HTTP proxy in its environment must not send loopback requests to it.
    setenv("no_proxy", "127.0.0.1,localhost", 1)
    setenv("NO_PROXY", "127.0.0.1,localhost", 1)
    server = try LoopbackServer()
  }

  func request(_ path: String) -> URLRequest { URLRequest(url: server.url(path)) }

  @Test("response: every status code is an answer, with its body")
  func response() throws {
    let ok = try session.rx.response(request: request("/items")).toBlocking(timeout: 10).single()
    #expect(ok.response.statusCode == 200)
    #expect(String(decoding: ok.data, as: UTF8.self) == #"{"items":[1,2,3]}"#)
    let missing = try session.rx.response(request: request("/missing"))
      .toBlocking(timeout: 10).single()
    #expect(missing.response.statusCode == 404)
    #expect(String(decoding: missing.data, as: UTF8.self) == "no such item")
    server.stop()
  }

  @Test("data: the body for 2xx, decoded with decode(type:decoder:); httpRequestFailed otherwise")
  func data() throws {
    let items = try session.rx.data(request: request("/items"))
      .decode(type: Items.self, decoder: JSONDecoder())
      .toBlocking(timeout: 10).single()
    #expect(items == Items(items: [1, 2, 3]))
    let result = session.rx.data(request: request("/missing")).toBlocking(timeout: 10)
      .materialize()
    guard case .failed(let elements, let error) = result,
      case .httpRequestFailed(let response, let body) = error as? RxCocoaURLError
    else {
      Issue.record("expected httpRequestFailed, got \(result)")
      return
    }
    #expect(elements.isEmpty)
    #expect(response.statusCode == 404)
    #expect(body.map { String(decoding: $0, as: UTF8.self) } == "no such item")
    #expect(
      (error as? RxCocoaURLError)?.debugDescription == "HTTP request failed with `404`.")
    server.stop()
  }

  @Test("json: the body deserialized; deserializationError for a body that is not JSON")
  func json() throws {
    let object = try session.rx.json(url: server.url("/items")).toBlocking(timeout: 10).single()
    #expect((object as? [String: Any])?["items"] as? [Int] == [1, 2, 3])
    let result = session.rx.json(request: request("/garbage")).toBlocking(timeout: 10)
      .materialize()
    guard case .failed(_, let error) = result,
      case .deserializationError = error as? RxCocoaURLError
    else {
      Issue.record("expected deserializationError, got \(result)")
      return
    }
    server.stop()
  }

  @Test("a request that cannot connect fails with the session's error, not an RxCocoaURLError")
  func failingRequest() throws {
    server.stop()
    let port = try closedLoopbackPort()
    let url = URL(string: "http://127.0.0.1:\(port)/items")!
    let result = session.rx.data(request: URLRequest(url: url)).toBlocking(timeout: 10)
      .materialize()
    guard case .failed(let elements, let error) = result else {
      Issue.record("expected a failure, got \(result)")
      return
    }
    #expect(elements.isEmpty)
    #expect(error is URLError)
    #expect(!(error is RxCocoaURLError))
  }

  @Test("each subscription runs its own request; disposing one cancels its task")
  func cancellationOnDispose() throws {
    let hang = session.rx.data(request: request("/hang"))
    let events = Locked<[String]>([])
    let subscription = hang.subscribe { event in events.withLock { $0.append("\(event)") } }
    #expect(wait { server.requestLines == ["GET /hang HTTP/1.1"] })
    subscription.dispose()
    // The task is cancelled: the client closes the connection, and nothing is delivered.
    #expect(wait { server.hangsClosedByClient == 1 })
    #expect(events.withLock { $0 }.isEmpty)

    _ = try session.rx.data(request: request("/items")).toBlocking(timeout: 10).single()
    _ = try session.rx.data(request: request("/items")).toBlocking(timeout: 10).single()
    #expect(server.requestLines.filter { $0 == "GET /items HTTP/1.1" }.count == 2)
    server.stop()
  }

  /// Polls `condition` every 10 ms for at most 10 s (a bound, not a timing assertion).
  func wait(_ condition: () -> Bool) -> Bool {
    for _ in 0..<1000 {
      if condition() { return true }
      usleep(10_000)
    }
    return condition()
  }
}
