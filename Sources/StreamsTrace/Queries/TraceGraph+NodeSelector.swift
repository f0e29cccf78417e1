extension TraceGraph {
  /// Picks nodes of a trace by what people know about them: kind, role, owner, name, file, line.
  ///
  /// A selector matches a node when every field it sets matches; a selector that sets nothing
  /// (``any``) matches every node. A string literal is a selector of ``ownerOrName``, so the
  /// checks read like the app: `"CartBadge"` is every node the `CartBadge` type owns, and
  /// `"UIState.contentAlpha"` is the node given that name with ``/StreamsTraceRecording/TraceRecorder/name(_:_:owner:)``.
  /// Refine a selector by chaining: each method returns a copy with one more field set.
  ///
  /// ```swift
  /// let graph = TraceGraph(nodes: [
  ///   .init(id: 1, kind: "map", role: .operator, file: "App/Cart.swift", line: 9, owner: "Cart"),
  ///   .init(id: 2, kind: "filter", role: .operator, file: "App/Cart.swift", line: 10,
  ///         owner: "Cart"),
  /// ])
  /// print(graph.nodes(matching: "Cart").count)  // every node Cart owns
  /// // Prints "2"
  /// print(graph.nodes(matching: .kind("map").owner("Cart")))
  /// // Prints "map App/Cart.swift:9 (Cart)"
  /// print(graph.nodes(matching: .file("Cart.swift", line: 10)))
  /// // Prints "filter App/Cart.swift:10 (Cart)"
  /// ```
  public struct NodeSelector: Sendable, Hashable, CustomStringConvertible,
    ExpressibleByStringLiteral
  {
    /// The node's id; ids differ from run to run, so this suits hand-built graphs.
    public var id: UInt64?
    /// The node's kind, exactly: `"map"`, `"PublishSubject"`, `"subscribe(with:)"`.
    public var kind: String?
    /// The node's role.
    public var role: Role?
    /// The node's owner type, exactly.
    public var owner: String?
    /// The node's name, exactly (see ``/StreamsTraceRecording/TraceRecorder/name(_:_:owner:)``).
    public var name: String?
    /// Matches the node's owner or its name, exactly: what a string literal sets.
    public var ownerOrName: String?
    /// The end of the node's file: the whole `#fileID` or its last path components, matched at
    /// a `/` (`"Cart.swift"` matches `"App/Cart.swift"`, not `"App/MyCart.swift"`).
    public var file: String?
    /// The node's line.
    public var line: UInt?

    /// A selector with the given fields; leave a field `nil` to match any value.
    public init(
      id: UInt64? = nil, kind: String? = nil, role: Role? = nil, owner: String? = nil,
      name: String? = nil, ownerOrName: String? = nil, file: String? = nil, line: UInt? = nil
    ) {
      self.id = id
      self.kind = kind
      self.role = role
      self.owner = owner
      self.name = name
      self.ownerOrName = ownerOrName
      self.file = file
      self.line = line
    }

    /// The nodes owned by, or named, `value`: `"CartBadge"`, `"UIState.contentAlpha"`.
    public init(stringLiteral value: String) {
      self.init(ownerOrName: value)
    }

    /// Every node.
    public static let any = NodeSelector()

    /// The node with this id.
    public static func id(_ id: UInt64) -> Self { Self(id: id) }
    /// The nodes of this kind: `"map"`, `"BehaviorSubject"`, `"bind(to:)"`.
    public static func kind(_ kind: String) -> Self { Self(kind: kind) }
    /// The nodes of this role.
    public static func role(_ role: Role) -> Self { Self(role: role) }
    /// The nodes owned by this type name.
    public static func owner(_ owner: String) -> Self { Self(owner: owner) }
    /// The nodes owned by this type, named as the recorder names it (`String(describing:)`).
    public static func owner(_ owner: Any.Type) -> Self { Self(owner: typeName(owner)) }
    /// The node given this name.
    public static func named(_ name: String) -> Self { Self(name: name) }
    /// The nodes owned by, or named, `value` (what a string literal selects).
    public static func ownerOrName(_ value: String) -> Self { Self(ownerOrName: value) }
    /// The nodes made in the file ending with `file`, on `line` when given.
    public static func file(_ file: String, line: UInt? = nil) -> Self {
      Self(file: file, line: line)
    }

    /// This selector, also requiring the id.
    public func id(_ id: UInt64) -> Self { with { $0.id = id } }
    /// This selector, also requiring the kind.
    public func kind(_ kind: String) -> Self { with { $0.kind = kind } }
    /// This selector, also requiring the role.
    public func role(_ role: Role) -> Self { with { $0.role = role } }
    /// This selector, also requiring the owner.
    public func owner(_ owner: String) -> Self { with { $0.owner = owner } }
    /// This selector, also requiring the owner type.
    public func owner(_ owner: Any.Type) -> Self { with { $0.owner = typeName(owner) } }
    /// This selector, also requiring the name.
    public func named(_ name: String) -> Self { with { $0.name = name } }
    /// This selector, also requiring the owner or the name.
    public func ownerOrName(_ value: String) -> Self { with { $0.ownerOrName = value } }
    /// This selector, also requiring the file (and the line, when given).
    public func file(_ file: String, line: UInt? = nil) -> Self {
      with {
        $0.file = file
        if let line { $0.line = line }
      }
    }
    /// This selector, also requiring the line.
    public func line(_ line: UInt) -> Self { with { $0.line = line } }

    /// Whether `node` has every field this selector sets.
    public func matches(_ node: Node) -> Bool {
      if let id, node.id != id { return false }
      if let kind, node.kind != kind { return false }
      if let role, node.role != role { return false }
      if let owner, node.owner != owner { return false }
      if let name, node.name != name { return false }
      if let ownerOrName, node.owner != ownerOrName, node.name != ownerOrName { return false }
      if let file, node.file != file, !node.file.hasSuffix("/" + file) { return false }
      if let line, node.line != line { return false }
      return true
    }

    /// The fields set, as a failure message names them: `owner or name "CartBadge"`,
    /// `kind "map", owner "CartBadge"`, `any node`.
    public var description: String {
      var parts: [String] = []
      if let id { parts.append("id \(id)") }
      if let kind { parts.append("kind \"\(kind)\"") }
      if let role { parts.append("role \(role.rawValue)") }
      if let owner { parts.append("owner \"\(owner)\"") }
      if let name { parts.append("name \"\(name)\"") }
      if let ownerOrName { parts.append("owner or name \"\(ownerOrName)\"") }
      if let file { parts.append("file \"\(file)\"") }
      if let line { parts.append("line \(line)") }
      return parts.isEmpty ? "any node" : parts.joined(separator: ", ")
    }

    private func with(_ change: (inout Self) -> Void) -> Self {
      var copy = self
      change(&copy)
      return copy
    }
  }

  /// The nodes `selector` matches, by ascending id.
  ///
  /// ```swift
  /// for node in graph.nodes(matching: .role(.subject).owner("Analytics")) {
  ///   print(node.stableKey)
  /// }
  /// ```
  ///
  /// A name or owner that matches no node exactly selects by property: `"added"` selects the
  /// node named `CartStore.added` (and every other `….added`; the command line then asks which).
  ///
  /// - Complexity: O(*n* log *n*) in the number of nodes.
  public func nodes(matching selector: NodeSelector) -> NodeList {
    var matched = nodes.filter(selector.matches)
    if matched.isEmpty, let property = selector.ownerOrName ?? selector.name, !property.isEmpty {
      var rest = selector
      rest.ownerOrName = nil
      rest.name = nil
      let suffix = "." + property
      matched = nodes.filter { node in
        rest.matches(node) && node.name?.hasSuffix(suffix) == true
      }
    }
    return NodeList(nodes: matched.sorted { $0.id < $1.id })
  }
}

/// A type's name as the recorder writes owners: `String(describing:)`.
func typeName(_ type: Any.Type) -> String {
  String(describing: type)
}
