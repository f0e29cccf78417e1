import StreamsTrace
import SwiftSyntax

/// Where subscriptions are kept, and the ones that may outlive what they serve.
extension Extractor {
  /// `disposed(by: bag)`: where the subscription is kept.
  func keep(_ terminal: UInt64, in bag: ExprSyntax?, scope: Scope) {
    terminals[terminal]?.bag = bag?.trimmedDescription ?? "?"
  }

  /// A subscription handed to code that keeps or ends it (an argument, an array, `+=`, a
  /// `return`, `.dispose()`) is in that code's hands: the map does not follow it there, and
  /// does not report it as never disposed. `holder` says where it went (no dots: a bag's name
  /// has them).
  func handOver(_ value: Value, to holder: String) {
    if case .subscription(let terminal) = value, terminals[terminal]?.bag == nil {
      terminals[terminal]?.bag = holder
    }
  }

  /// Records a place where a stream was expected.
  func note(reference: ExprSyntax, resolved: Bool, in scope: Scope) {
    references.append(
      StaticMap.Reference(
        file: scope.file.path, line: scope.file.line(of: reference),
        text: String(
          reference.trimmedDescription.split(whereSeparator: \.isWhitespace)
            .joined(separator: " ").prefix(80)),
        resolved: resolved))
  }

  /// The subscriptions that may outlive what they serve: never kept; keeping `self` strongly in
  /// another object's bag; made in a reused cell without a fresh bag.
  func findLeakCandidates() {
    let ordered = terminals.sorted {
      ($0.value.file.path, $0.value.line, $0.key) < ($1.value.file.path, $1.value.line, $1.key)
    }
    for (node, use) in ordered {
      let site = "\(use.file.path):\(use.line)"
      let kind = graph.node(node).kind
      if use.discarded || use.bag == nil {
        leakCandidates.append(
          StaticMap.LeakCandidate(
            node: node, site: site,
            reason: "the result of \(kind) is never disposed or put in a bag: it lives until the "
              + "sequence ends"))
        continue
      }
      guard let bag = use.bag else { continue }
      let bagBase = bag.split(separator: ".").dropLast().joined(separator: ".")
      // `rx.disposeBag` (NSObject+Rx) is the object's own bag.
      let ownBag = bagBase == "self" || bagBase == "rx" || bagBase == "self.rx"
      if !bagBase.isEmpty, !ownBag, use.scope.type != nil {
        let owner = use.scope.type?.name ?? "its owner"
        leakCandidates.append(
          StaticMap.LeakCandidate(
            node: node, site: site,
            reason: use.capturesSelfStrongly
              ? "\(kind) captures self strongly and is kept in \(bag): \(owner) lives as long as "
                + "\(bagBase); capture [weak self] or use subscribe(with:), and keep it in "
                + "\(owner)'s own bag"
              : "\(kind) is kept in \(bag), not in \(owner)'s own bag: it stays live after "
                + "\(owner) is gone, for as long as \(bagBase) lives"))
      }
      if let type = use.scope.type, type.name.hasSuffix("Cell"),
        bag == "disposeBag" || bag == "self.disposeBag", !resetsBag(type)
      {
        leakCandidates.append(
          StaticMap.LeakCandidate(
            node: node, site: site,
            reason: "\(type.name) is a reused cell and keeps \(kind) in \(bag), which is never "
              + "replaced: give the cell a fresh DisposeBag in prepareForReuse()"))
      }
    }
  }

  /// Whether a type assigns a fresh `DisposeBag()` anywhere outside its initializers.
  private func resetsBag(_ type: TypeDeclaration) -> Bool {
    type.functions.contains { name, functions in
      name != "init"
        && functions.contains {
          $0.statements.trimmedDescription.contains("DisposeBag()")
        }
    }
  }
}
