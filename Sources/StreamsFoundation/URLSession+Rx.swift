import Foundation
import Streams

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

#if !canImport(ObjectiveC)
  extension URLSession: ReactiveCompatible {}
#endif

/// Why a `URLSession.rx` request failed, as RxCocoa's `RxCocoaURLError`.
public enum RxCocoaURLError: Error, CustomDebugStringConvertible, @unchecked Sendable {
  // @unchecked Sendable: the responses and data it carries are immutable once the request ended
  // (URLResponse is a class Foundation does not mark Sendable).

  /// Unknown error occurred.
  case unknown
  /// The response is not an HTTP response.
  case nonHTTPResponse(response: URLResponse)
  /// The response's status code is not in `200..<300`.
  case httpRequestFailed(response: HTTPURLResponse, data: Data?)
  /// The body could not be deserialized (`json`).
  case deserializationError(error: any Error)

  /// A description naming the failure and, for a failed request, its status code.
  public var debugDescription: String {
    switch self {
    case .unknown:
      "Unknown error has occurred."
    case .nonHTTPResponse(let response):
      "Response is not NSHTTPURLResponse `\(response)`."
    case .httpRequestFailed(let response, _):
      "HTTP request failed with `\(response.statusCode)`."
    case .deserializationError(let error):
      "Error during deserialization of the response: \(error)"
    }
  }
}

extension Reactive where Base: URLSession {
  /// Runs `request` when subscribed and emits its response and body, then completes; fails with
  /// the request's error, or ``RxCocoaURLError/nonHTTPResponse(response:)`` for a response that
  /// is not HTTP. Every status code is a response here; ``data(request:)`` fails on the others.
  ///
  /// ```swift
  /// let request = URLRequest(url: URL(string: "https://example.com/items")!)
  /// let status = URLSession.shared.rx.response(request: request).map { $0.response.statusCode }
  /// ```
  ///
  /// Each subscription runs its own data task; disposing the subscription before the answer
  /// cancels the task (then nothing is emitted). The answer is delivered on the session's
  /// delegate queue, as RxCocoa delivers it: add `observe(on:)` to use it elsewhere.
  public func response(request: URLRequest) -> Observable<(response: HTTPURLResponse, data: Data)> {
    let session = UncheckedSendableBox(base)
    return Observable.create { observer in
      let task = session.value.dataTask(with: request) { data, response, error in
        if let error {
          observer.onError(error)
          return
        }
        guard let response else {
          observer.onError(RxCocoaURLError.unknown)
          return
        }
        guard let http = response as? HTTPURLResponse else {
          observer.onError(RxCocoaURLError.nonHTTPResponse(response: response))
          return
        }
        observer.onNext((http, data ?? Data()))
        observer.onCompleted()
      }
      task.resume()
      let running = UncheckedSendableBox(task)
      return Disposables.create { running.value.cancel() }
    }
  }

  /// Runs `request` and emits its body when the status code is in `200..<300`; fails with
  /// ``RxCocoaURLError/httpRequestFailed(response:data:)`` otherwise, as RxCocoa's `data(request:)`.
  ///
  /// ```swift
  /// let items = URLSession.shared.rx.data(request: request)
  ///   .decode(type: [String].self, decoder: JSONDecoder())
  /// ```
  public func data(request: URLRequest) -> Observable<Data> {
    response(request: request).map { pair in
      guard 200..<300 ~= pair.response.statusCode else {
        throw RxCocoaURLError.httpRequestFailed(response: pair.response, data: pair.data)
      }
      return pair.data
    }
  }

  /// Runs `request` and emits its body deserialized by `JSONSerialization`, as RxCocoa's
  /// `json(request:options:)`; fails as ``data(request:)`` does, or with
  /// ``RxCocoaURLError/deserializationError(error:)``. Prefer ``data(request:)`` with
  /// `decode(type:decoder:)` for typed results.
  public func json(request: URLRequest, options: JSONSerialization.ReadingOptions = [])
    -> Observable<Any>
  {
    data(request: request).map { data in
      do {
        return try JSONSerialization.jsonObject(with: data, options: options)
      } catch {
        throw RxCocoaURLError.deserializationError(error: error)
      }
    }
  }

  /// `json(request:)` of a GET request of `url`.
  public func json(url: URL) -> Observable<Any> {
    json(request: URLRequest(url: url))
  }
}
