#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A decoder of `Data`, as RxSwift's `DataDecoder`: `JSONDecoder` and `PropertyListDecoder` are
/// ones; conform your own to use it with ``ObservableType/decode(type:decoder:file:line:)``.
public protocol DataDecoder {
  /// Decodes an `Item` from `data`; throws when it cannot.
  func decode<Item: Decodable>(_ type: Item.Type, from data: Data) throws -> Item
}

extension JSONDecoder: DataDecoder {}
extension PropertyListDecoder: DataDecoder {}

extension ObservableType where Element == Data {
  /// Decodes each element into an `Item` with `decoder`; a decoding error becomes the sequence's
  /// error, as RxSwift's `decode(type:decoder:)`.
  ///
  /// ```swift
  /// let body = Observable.just(Data("[1, 2]".utf8))
  /// _ = body.decode(type: [Int].self, decoder: JSONDecoder()).subscribe(onNext: { print($0) })
  /// // Prints "[1, 2]"
  /// ```
  public func decode<Item: Decodable>(
    type: Item.Type, decoder: some DataDecoder, file: StaticString = #fileID, line: UInt = #line
  ) -> Observable<Item> {
    stage(MapStep { try decoder.decode(type, from: $0) }, kind: "decode", file: file, line: line)
  }
}
