import Foundation
import StreamsTrace
import Testing

extension TraceGraphMermaidTests {
  /// One parsed statement of a Mermaid flowchart the exporter wrote.
  struct Link: Equatable {
    var from: String
    var arrow: String
    var label: String?
    var to: String
  }

  /// `text` without the exporter's escapes: `<br/>` to a newline, `#quot;` `#amp;` `#lt;` `#gt;`
  /// and `#N;` to the character. `nil` when something else than an allowed character or one of
  /// those escapes appears: a character that could end the string or start Mermaid syntax.
  func decode(_ text: Substring) -> String? {
    let safe = Set(
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,_/()+=*!?@$~'^")
    let named: [Substring: Character] = ["quot": "\"", "amp": "&", "lt": "<", "gt": ">"]
    var result = ""
    var rest = text
    while let character = rest.first {
      if rest.hasPrefix("<br/>") {
        result.append("\n")
        rest = rest.dropFirst(5)
      } else if character == "#", let end = rest.firstIndex(of: ";") {
        let code = rest[rest.index(after: rest.startIndex)..<end]
        if let value = UInt32(code), let scalar = Unicode.Scalar(value) {
          result.unicodeScalars.append(scalar)
        } else if let known = named[code] {
          result.append(known)
        } else {
          return nil
        }
        rest = rest[rest.index(after: end)...]
      } else if safe.contains(character) {
        result.append(character)
        rest = rest.dropFirst()
      } else {
        return nil
      }
    }
    return result
  }

  /// The statement lines of a flowchart, trimmed, without comments.
  func statements(_ mermaid: String) -> [String] {
    mermaid.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.hasPrefix("%%") }
  }

  /// The box statements: id, the shape's opening, and the decoded label.
  func boxes(_ mermaid: String) -> [String: (shape: String, label: String?)] {
    var result: [String: (shape: String, label: String?)] = [:]
    for line in statements(mermaid) {
      let id = String(line.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
      // The legend's sample boxes are not the drawing's.
      guard !id.isEmpty, !id.hasPrefix("legend"), let next = line.dropFirst(id.count).first,
        "[({>".contains(next),
        let quote = line.firstIndex(of: "\""), let last = line.lastIndex(of: "\""), quote < last
      else { continue }
      let shape = String(line[..<quote].dropFirst(id.count))
      result[id] = (shape, decode(line[line.index(after: quote)..<last]))
    }
    return result
  }

  /// The link statements, in order (the order `linkStyle` numbers them).
  func links(_ mermaid: String) -> [Link] {
    statements(mermaid).compactMap { line in
      let parts = line.split(separator: " ", maxSplits: 1)
      guard parts.count == 2, let space = parts[1].lastIndex(of: " ") else { return nil }
      let middle = parts[1][..<space]
      let to = String(parts[1][parts[1].index(after: space)...])
      for arrow in ["--o", "-->", "-.->", "==>"] where middle.hasPrefix(arrow) {
        let rest = middle.dropFirst(arrow.count)
        if rest.isEmpty { return Link(from: String(parts[0]), arrow: arrow, label: nil, to: to) }
        guard rest.hasPrefix("|\""), rest.hasSuffix("\"|") else { return nil }
        return Link(
          from: String(parts[0]), arrow: arrow, label: decode(rest.dropFirst(2).dropLast(2)),
          to: to)
      }
      return nil
    }
  }

  /// The subgraph labels around box `id`, outermost first.
  func subgraphPath(of id: String, in mermaid: String) -> [String]? {
    var stack: [String] = []
    for line in statements(mermaid) {
      if line.hasPrefix("subgraph ") {
        guard let open = line.firstIndex(of: "\""), let close = line.lastIndex(of: "\"") else {
          return nil
        }
        stack.append(decode(line[line.index(after: open)..<close]) ?? "?")
      } else if line == "end" {
        stack.removeLast()
      } else if line.hasPrefix(id),
        line.dropFirst(id.count).first.map({ "[({>".contains($0) }) == true
      {
        return stack
      }
    }
    return nil
  }

  /// The numbers a `linkStyle` line with `style` gives.
  func styledLinks(_ mermaid: String, _ style: String) -> [Int] {
    statements(mermaid).filter { $0.hasPrefix("linkStyle ") && $0.hasSuffix(" " + style) }
      .flatMap { $0.split(separator: " ")[1].split(separator: ",").compactMap { Int($0) } }
  }

  /// The boxes a `class ... name` line gives the class `name`.
  func classed(_ mermaid: String, _ name: String) -> [String] {
    statements(mermaid).filter { $0.hasPrefix("class ") && $0.hasSuffix(" " + name) }
      .flatMap { $0.split(separator: " ")[1].split(separator: ",").map(String.init) }
  }

  /// The count a link label starts with: 3 for `3 events`, 1 for `1 live / 2 ever`.
  func leadingCount(_ label: String?) -> Int? {
    label.flatMap { Int($0.prefix { $0.isNumber }) }
  }

  /// A generated app: `modules` modules of `files` files of `owners` owners of `chain` nodes each,
  /// every owner a chain subject -> operators -> subscriber, and every subscriber sending into
  /// `fanOut` other owners' subjects.
  func generated(
    modules: Int, files: Int, owners: Int, chain: Int, fanOut: Int
  ) -> TraceGraph {
    var graph = TraceGraph()
    let ownerCount = modules * files * owners
    for owner in 0..<ownerCount {
      let module = owner / (files * owners)
      let file = owner / owners % files
      for step in 0..<chain {
        let id = UInt64(owner * chain + step)
        let role: TraceGraph.Role = step == 0 ? .subject : step == chain - 1 ? .terminal : .operator
        graph.nodes.append(
          .init(
            id: id, kind: step == 0 ? "PublishSubject" : step == chain - 1 ? "subscribe" : "map",
            role: role, file: "Module\(module)/Screen\(file)ViewModel.swift", line: UInt(10 + step),
            owner: "Screen\(file)Part\(owner % owners)Of\(module)",
            upstreams: step == 0 ? [] : [id - 1],
            eventCount: owner + step))
        if step > 0 {
          graph.edges.append(.init(from: id - 1, to: id, kind: .subscription, count: 1, live: 1))
          graph.edges.append(.init(from: id - 1, to: id, kind: .emission, count: owner % 17 + step))
        }
      }
      for hop in 0..<fanOut {
        let target = (owner * 7 + 3 + hop * 31) % ownerCount
        graph.edges.append(
          .init(
            from: UInt64(owner * chain + chain - 1), to: UInt64(target * chain), kind: .chain,
            count: owner % 13 + hop + 1))
      }
    }
    return graph
  }
}
