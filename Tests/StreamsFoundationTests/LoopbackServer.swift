import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A small HTTP/1.1 server on 127.0.0.1, started by the test that uses it: a real server on a
/// real socket, so that `URLSession.rx` is tested against the network stack, not a mock.
///
/// Routes: `/items` answers 200 with a JSON body, `/missing` 404 with a text body, `/garbage` 200
/// with a body that is not JSON, and `/hang` reads the request and never answers (it records
/// when the client closes the connection). Each connection is served on its own thread and
/// closed after one answer.
final class LoopbackServer: @unchecked Sendable {
  // @unchecked Sendable: `listener` and `port` are immutable; `closed` is guarded by `lock`.
  let port: UInt16
  private let listener: Int32
  private let lock = NSLock()
  private var closedHangs = 0
  private var requests: [String] = []

  init() throws {
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard listener >= 0 else { throw POSIXError(.EIO) }
    var yes: Int32 = 1
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, listen(listener, 16) == 0 else { throw POSIXError(.EADDRINUSE) }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        getsockname(listener, $0, &length)
      }
    }
    self.listener = listener
    port = UInt16(bigEndian: address.sin_port)
    let thread = Thread { [self] in acceptLoop() }
    thread.start()
  }

  /// Stops accepting: the listening socket is shut down, which ends the accept loop.
  func stop() {
    shutdown(listener, Int32(SHUT_RDWR))
    close(listener)
  }

  func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

  /// How many `/hang` connections the client has closed.
  var hangsClosedByClient: Int { lock.withLock { closedHangs } }

  /// The request lines received (`GET /items HTTP/1.1`), in order.
  var requestLines: [String] { lock.withLock { requests } }

  private func acceptLoop() {
    while true {
      let connection = accept(listener, nil, nil)
      if connection < 0 { return }
      let thread = Thread { [self] in serve(connection) }
      thread.start()
    }
  }

  private func serve(_ connection: Int32) {
    defer { close(connection) }
    guard let head = readHead(connection) else { return }
    let line = head.components(separatedBy: "\r\n").first ?? ""
    lock.withLock { requests.append(line) }
    let path = line.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
    switch path {
    case "/items":
      answer(connection, status: "200 OK", type: "application/json", #"{"items":[1,2,3]}"#)
    case "/missing": answer(connection, status: "404 Not Found", type: "text/plain", "no such item")
    case "/garbage": answer(connection, status: "200 OK", type: "application/json", "not json")
    case "/hang":
      // Never answers; a read of 0 bytes means the client closed the connection.
      var byte: UInt8 = 0
      while recv(connection, &byte, 1, 0) > 0 {}
      lock.withLock { closedHangs += 1 }
    default: answer(connection, status: "404 Not Found", type: "text/plain", "unknown path")
    }
  }

  /// Reads up to the blank line that ends the request's head.
  private func readHead(_ connection: Int32) -> String? {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1024)
    while !bytes.ends(with: Array("\r\n\r\n".utf8)) {
      let count = recv(connection, &buffer, buffer.count, 0)
      if count <= 0 { return nil }
      bytes += buffer[0..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  private func answer(_ connection: Int32, status: String, type: String, _ body: String) {
    let text =
      "HTTP/1.1 \(status)\r\nContent-Type: \(type)\r\nContent-Length: \(body.utf8.count)\r\n"
      + "Connection: close\r\n\r\n\(body)"
    let bytes = Array(text.utf8)
    var sent = 0
    while sent < bytes.count {
      let count = bytes[sent...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, 0) }
      if count <= 0 { return }
      sent += count
    }
  }
}

extension Array where Element: Equatable {
  fileprivate func ends(with suffix: [Element]) -> Bool {
    count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
  }
}

/// A port on 127.0.0.1 that nothing listens on: bound, then closed.
func closedLoopbackPort() throws -> UInt16 {
  let server = try LoopbackServer()
  server.stop()
  return server.port
}
