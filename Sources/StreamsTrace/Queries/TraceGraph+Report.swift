// The report: one offline HTML page a developer opens in a browser. It holds the coupling map,
// the cycles with the sends that break them, the leaks, the longest chains with their values and
// a section per owner with its streams and neighbours, searchable by name. No network: the style
// and the search are inline, and the map is the `coupling.svg` beside the page when Graphviz drew
// it, with a table that reads without it.

extension TraceGraph {
  /// The trace as one self-contained HTML page (see `Guides/Tracing.md`, "The report").
  ///
  /// The page shows `coupling.svg` from its own folder when it is there (`dot -Tsvg coupling.dot
  /// -o coupling.svg`, which `streams-trace report` writes beside it), and a table of the busiest
  /// owner pairs in any case.
  ///
  /// ```swift
  /// try TraceFile.write(graph.htmlReport(title: "Checkout"), to: "report/index.html")
  /// try TraceFile.write(graph.couplingMap().dot(), to: "report/coupling.dot")
  /// ```
  ///
  /// - Parameters:
  ///   - title: The page's title.
  ///   - chainCount: How many of the longest chains to show.
  public func htmlReport(title: String = "StreamsTrace report", chains chainCount: Int = 10)
    -> String
  {
    let map = couplingMap()
    let findings = cycleFindings()
    let leaks = self.leaks()
    var html = HTMLText()
    html.raw(
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
        + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>")
    html.text(title)
    html.raw("</title>\n<style>\(Self.reportStyle)</style></head>\n<body>\n<header><h1>")
    html.text(title)
    html.raw("</h1><p class=\"counts\">")
    html.text(
      "\(nodes.count) nodes, \(edges.count) edges, \(map.owners.count) owners; "
        + "\(findings.count) cycle\(findings.count == 1 ? "" : "s"), "
        + "\(leaks.count) leak\(leaks.count == 1 ? "" : "s")")
    html.raw(
      "</p>\n<input id=\"search\" type=\"search\" placeholder=\"Search by name: CartStore.added, "
        + "Analytics, map…\" autocomplete=\"off\"><span id=\"found\"></span>\n"
        + "<nav><a href=\"#coupling\">Coupling map</a> <a href=\"#cycles\">Cycles</a> "
        + "<a href=\"#leaks\">Leaks</a> <a href=\"#chains\">Chains</a> "
        + "<a href=\"#owners\">Owners</a></nav></header>\n<main>\n")

    // The coupling map.
    html.raw("<section id=\"coupling\"><h2>Coupling map</h2>\n")
    html.raw(
      "<p class=\"note\">One box per owner type, one edge per pair: grey, subscriptions; blue, "
        + "sends into a subject; red, on a cycle. Drawn by Graphviz into coupling.svg; the table "
        + "below reads without it.</p>\n"
        + "<img id=\"map\" src=\"coupling.svg\" alt=\"coupling map (coupling.svg)\" "
        + "onerror=\"this.remove()\">\n")
    html.raw(
      "<table class=\"pairs\"><tr><th>from</th><th>to</th><th>subscriptions</th>"
        + "<th>sends</th></tr>\n")
    let busiest = map.links.sorted {
      ($0.subscriptions + $0.sends, $1.from, $1.to) > ($1.subscriptions + $1.sends, $0.from, $0.to)
    }
    for link in busiest.prefix(200) {
      html.raw("<tr class=\"item\(link.onCycle ? " cycle" : "")\"><td>")
      html.link(link.from)
      html.raw("</td><td>")
      html.link(link.to)
      html.raw("</td><td>\(link.subscriptions)</td><td>\(link.sends)</td></tr>\n")
    }
    html.raw("</table>")
    if busiest.count > 200 {
      html.raw("<p class=\"note\">")
      html.text("… and \(busiest.count - 200) more pairs; every owner's section lists its own.")
      html.raw("</p>")
    }
    html.raw("</section>\n")

    // Cycles.
    html.raw("<section id=\"cycles\"><h2>Cycles</h2>\n")
    if findings.isEmpty { html.raw("<p>No structural cycle.</p>\n") }
    for finding in findings {
      html.raw("<pre class=\"item cycle\">")
      html.text(finding.description)
      html.raw("</pre>\n")
    }
    html.raw("</section>\n")

    // Leaks.
    html.raw("<section id=\"leaks\"><h2>Leaks</h2>\n")
    if leaks.isEmpty { html.raw("<p>No leaked subscription.</p>\n") }
    for leak in leaks {
      html.raw("<p class=\"item leak\">")
      html.text(leak.description)
      html.raw("</p>\n")
    }
    html.raw("</section>\n")

    // The longest chains, with their values.
    html.raw("<section id=\"chains\"><h2>Longest chains</h2>\n")
    let longest = chainsCrossingFiles(atLeast: 1).sorted {
      ($0.deliveries.count, $1.origin.id) > ($1.deliveries.count, $0.origin.id)
    }
    if longest.isEmpty { html.raw("<p>No deliveries recorded.</p>\n") }
    for chain in longest.prefix(max(0, chainCount)) {
      html.raw("<pre class=\"item\">")
      html.text(chain.description)
      html.raw("</pre>\n")
    }
    html.raw("</section>\n")

    // One section per owner.
    html.raw("<section id=\"owners\"><h2>Owners</h2>\n")
    var byOwner: [String: [Node]] = [:]
    for node in nodes {
      byOwner[
        node.owner ?? RecorderState.ownerFromFile(node.file) ?? "(unknown owner)", default: []
      ]
      .append(node)
    }
    var incoming: [String: [CouplingMap.Link]] = [:]
    var outgoing: [String: [CouplingMap.Link]] = [:]
    for link in map.links {
      outgoing[link.from, default: []].append(link)
      incoming[link.to, default: []].append(link)
    }
    for owner in map.owners {
      html.raw("<div class=\"item owner\" id=\"")
      html.text(Self.anchor(owner.name))
      html.raw("\"><h3>")
      html.text(owner.name)
      html.raw("</h3><p class=\"note\">")
      html.text(
        TraceGraph.CouplingMap.detail(owner).replacingNewlines(with: "; ") + "; files: "
          + owner.files.sorted().joined(separator: ", "))
      html.raw("</p>\n<ul>")
      let members = (byOwner[owner.name] ?? []).sorted { ($0.file, $0.line) < ($1.file, $1.line) }
      for node in members where node.name != nil || node.role == .subject {
        html.raw("<li class=\"stream\">")
        html.text(Self.describe(node, id: node.id))
        if !node.recentValues.isEmpty {
          html.raw(" <span class=\"values\">")
          html.text(
            "values: "
              + node.recentValues.suffix(4).map { $0.isEmpty ? "(empty)" : $0 }
              .joined(separator: " · "))
          html.raw("</span>")
        }
        html.raw("</li>")
      }
      let others = members.count - members.filter { $0.name != nil || $0.role == .subject }.count
      if others > 0 {
        html.raw("<li class=\"note\">")
        html.text(
          "\(others) operator\(others == 1 ? "" : "s") and subscriber\(others == 1 ? "" : "s")")
        html.raw("</li>")
      }
      html.raw("</ul>\n")
      for (heading, links, other) in [
        ("takes from", incoming[owner.name] ?? [], \CouplingMap.Link.from),
        ("feeds", outgoing[owner.name] ?? [], \CouplingMap.Link.to),
      ] where !links.isEmpty {
        html.raw("<p>\(heading): ")
        for (index, link) in links.enumerated() {
          if index > 0 { html.raw(", ") }
          html.link(link[keyPath: other])
          html.text(" (\(link.label))")
        }
        html.raw("</p>\n")
      }
      html.raw("</div>\n")
    }
    html.raw("</section>\n</main>\n<script>\(Self.reportScript)</script>\n</body></html>\n")
    return html.result
  }

  /// An owner's section id: letters, digits, `-`, `_` and `.` kept, the rest as `-`.
  static func anchor(_ name: String) -> String {
    "owner-"
      + String(
        name.unicodeScalars.map {
          $0.properties.isAlphabetic || ("0"..."9").contains($0)
            || "-_.".unicodeScalars.contains($0)
            ? Character($0) : "-"
        })
  }

  static let reportStyle = """
    body{font:14px/1.45 -apple-system,Helvetica,Arial,sans-serif;margin:0;color:#222}
    header{position:sticky;top:0;background:#f6f6f6;border-bottom:1px solid #ddd;padding:8px 16px}
    h1{font-size:20px;margin:4px 0}h2{border-bottom:1px solid #ddd}h3{margin:4px 0}
    main{padding:0 16px 32px}#search{width:28em;padding:4px}#found{margin-left:8px;color:#666}
    nav a{margin-right:12px}.note{color:#666}.counts{margin:2px 0}
    pre{background:#fafafa;border:1px solid #eee;padding:8px;overflow-x:auto;white-space:pre-wrap}
    .cycle{border-left:4px solid #d22}.leak{border-left:4px solid #829;padding-left:8px}
    table.pairs{border-collapse:collapse}table.pairs td,table.pairs th{padding:2px 8px;
    border-bottom:1px solid #eee;text-align:left}tr.cycle td{color:#b00}
    .owner{border:1px solid #e4e4e4;border-radius:6px;padding:6px 10px;margin:8px 0}
    .values{color:#555;font-style:italic}#map{max-width:100%;border:1px solid #eee}
    .hidden{display:none}
    """

  static let reportScript = """
    const box=document.getElementById('search'),found=document.getElementById('found');
    const items=[...document.querySelectorAll('.item')];
    function filter(){const q=box.value.trim().toLowerCase();let n=0;
    for(const e of items){const hit=!q||e.textContent.toLowerCase().includes(q);
    e.classList.toggle('hidden',!hit);if(hit)n++}
    found.textContent=q?n+' of '+items.length+' entries':items.length+' entries'}
    box.addEventListener('input',filter);filter();
    """
}

/// HTML built with every piece of user text escaped.
struct HTMLText {
  private(set) var result = ""

  mutating func raw(_ text: String) { result += text }

  mutating func text(_ text: String) {
    for character in text {
      switch character {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&#39;"
      default: result.append(character)
      }
    }
  }

  /// A link to an owner's section.
  mutating func link(_ owner: String) {
    raw("<a href=\"#")
    text(TraceGraph.anchor(owner))
    raw("\">")
    text(owner)
    raw("</a>")
  }
}
