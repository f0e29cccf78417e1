import Foundation
import StreamsTrace
import Testing

extension TraceGraphDOTTests {
  /// The DOT statement lines of a node: `"n1" [label=...]`.
  func nodeLine(_ dot: String, _ id: String) -> String? {
    dot.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
      .first { $0.hasPrefix("\"\(id)\" [") }
  }

  /// The DOT edge lines from one box to another, of every kind.
  func edgeLines(_ dot: String, _ from: String, _ to: String) -> [String] {
    dot.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { $0.hasPrefix("\"\(from)\" -> \"\(to)\" [") }
  }

  /// The attributes of a statement line, their values unescaped as Graphviz reads them: `\"` and
  /// `\\` to the character, `\n` to a newline, `&amp;` to `&`.
  func attributes(_ line: String) -> [String: String] {
    guard let open = line.firstIndex(of: "[") else { return [:] }
    var result: [String: String] = [:]
    var rest = line[line.index(after: open)...]
    while let equals = rest.firstIndex(of: "=") {
      let key = rest[..<equals].trimmingCharacters(in: CharacterSet(charactersIn: " ,"))
      var value = ""
      var position = rest.index(after: rest.index(after: equals))  // past `="`
      while rest[position] != "\"" {
        if rest[position] == "\\" {
          position = rest.index(after: position)
          value.append(rest[position] == "n" ? "\n" : rest[position])
        } else {
          value.append(rest[position])
        }
        position = rest.index(after: position)
      }
      result[key] = value.replacingOccurrences(of: "&amp;", with: "&")
      rest = rest[rest.index(after: position)...]
    }
    return result
  }

  /// Whether every quoted string of every line closes on that line: no escape runs past a quote.
  func quotesBalance(_ dot: String) -> Bool {
    for line in dot.split(separator: "\n", omittingEmptySubsequences: false) {
      var inString = false
      var escaped = false
      for character in line {
        if escaped {
          escaped = false
        } else if inString && character == "\\" {
          escaped = true
        } else if character == "\"" {
          inString.toggle()
        }
      }
      if inString || escaped { return false }
    }
    return true
  }

  /// The labels of the clusters around the statement of box `id`, outermost first.
  func clusterPath(of id: String, in dot: String) -> [String]? {
    var stack: [String] = []
    for raw in dot.split(separator: "\n") {
      let line = raw.trimmingCharacters(in: .whitespaces)
      if line.hasPrefix("subgraph ") {
        stack.append("")
      } else if line.hasPrefix("graph [") && !stack.isEmpty {
        stack[stack.count - 1] = attributes(line)["label"] ?? ""
      } else if line == "}" && !stack.isEmpty {
        stack.removeLast()
      } else if line.hasPrefix("\"\(id)\" [") {
        return stack
      }
    }
    return nil
  }

  /// The ids of the boxes a DOT text draws.
  /// The drawing's boxes, the legend's left out.
  func boxIDs(_ dot: String) -> [String] {
    dot.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { $0.hasPrefix("\"") && !$0.contains(" -> ") && !$0.hasPrefix("\"legend") }
      .compactMap {
        $0.split(separator: "\"", omittingEmptySubsequences: true).first.map(String.init)
      }
  }
}
