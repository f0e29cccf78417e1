import StreamsTrace
import SwiftSyntax

/// What an expression is, as far as the map can tell without a compiler.
enum Value {
  /// A stream: the node that stands for it.
  case stream(UInt64)
  /// An instance of a type the map knows.
  case instance(TypeDeclaration)
  /// `x.rx`: RxCocoa's reactive extensions of `x` (its members are sources).
  case reactive
  /// What a terminal call returns: the subscription of the terminal node.
  case subscription(UInt64)
  case unknown

  var stream: UInt64? {
    if case .stream(let id) = self { return id }
    return nil
  }
}

/// Where the code being read is: its type, file, locals, and the node whose delivery runs it.
struct Scope {
  var type: TypeDeclaration?
  var file: ParsedFile
  var locals: [String: Value] = [:]
  /// The node whose delivery runs this code (a terminal's or an operator's closure): a send here
  /// is a chain edge from it.
  var delivering: UInt64?
  /// The function being read, whose sends are collected for its callers.
  var function: String?
}

/// Reads every type's properties, initializers and methods, and the files' top-level code, into a
/// ``MapGraph``.
final class Extractor {
  let table: TypeTable
  var graph = MapGraph()
  /// The node of each stream property, by `Type.property`.
  var propertyNodes: [String: UInt64] = [:]
  private var propertiesInProgress: Set<String> = []
  /// The value of each static property read so far (`Bus.events`, `Service.shared`), by
  /// `Type.property`: read once, so that every use names the same node.
  var staticValues: [String: Value] = [:]
  var staticsInProgress: Set<String> = []
  /// The value each function returns, by `Type.function`; read once.
  private var functionResults: [String: Value] = [:]
  private var functionsInProgress: Set<String> = []
  /// The subjects each function sends into outside any delivery, and the functions it calls.
  var functionSends: [String: [UInt64]] = [:]
  var functionCalls: [String: Set<String>] = [:]
  private var typesWithInitsRead: Set<String> = []
  /// The node of each stream parameter, by function key and parameter name.
  var parameterNodes: [String: UInt64] = [:]
  /// The nodes that stand for a stream property before the code that assigns it is read (a
  /// declared `let items: Observable<[Item]>`, a member of an `Input` or `Output` struct): a
  /// run has no such node, the property holds the stream assigned to it.
  var holderNodes: Set<UInt64> = []
  /// References where a stream was expected, resolved or not.
  var references: [StaticMap.Reference] = []
  var leakCandidates: [StaticMap.LeakCandidate] = []
  /// Terminal nodes made while reading, with where and how they were kept.
  var terminals: [UInt64: TerminalUse] = [:]

  struct TerminalUse {
    var file: ParsedFile
    var line: UInt
    var scope: Scope
    var capturesSelfStrongly: Bool
    var bag: String?
    var discarded = false
  }

  init(table: TypeTable) {
    self.table = table
  }

  // MARK: Reading

  /// Reads everything: each type's stream properties, initializers and methods, then the
  /// top-level code of each file.
  func read(_ files: [ParsedFile]) {
    let types = table.types.values.sorted { $0.name < $1.name }
    for type in types {
      for name in type.propertyOrder { _ = property(name, of: type) }
    }
    for type in types { readInitializers(of: type) }
    for type in types {
      for name in type.functions.keys.sorted() where name != "init" {
        for function in type.functions[name]! { _ = read(function, of: type) }
      }
    }
    for file in files {
      var scope = Scope(type: nil, file: file)
      // Top-level code, its `let`s included (types and functions are read with their types).
      for statement in file.tree.statements { walk(Syntax(statement.item), in: &scope) }
    }
    findLeakCandidates()
  }

  // MARK: Properties

  /// The value of `type`'s property `name`: its stream node (made on first use), or the instance
  /// of the type it holds.
  func property(_ name: String, of type: TypeDeclaration) -> Value {
    let key = type.name + "." + name
    if let node = propertyNodes[key] { return .stream(node) }
    guard let declaration = type.properties[name] else { return .unknown }
    if let typeText = declaration.typeText, !Vocabulary.isStream(typeText) {
      if let held = table.lookup(typeText, from: type.name) { return .instance(held) }
      if declaration.initializer == nil { return .unknown }
    }
    guard propertiesInProgress.insert(key).inserted else { return .unknown }
    defer { propertiesInProgress.remove(key) }
    let scope = Scope(type: type, file: declaration.file)
    if let initializer = declaration.initializer {
      if let subject = subjectConstruction(initializer) {
        let node = graph.add(
          kind: Vocabulary.recordedKind(subject), role: .subject, file: declaration.file.path,
          line: declaration.line, owner: ownerName(type), name: key)
        propertyNodes[key] = node
        return .stream(node)
      }
      var local = scope
      let value = evaluate(initializer, in: &local)
      if let node = value.stream {
        propertyNodes[key] = node
        graph.name(node, key)
      }
      if declaration.typeText == nil || value.stream != nil { return value }
    }
    guard let typeText = declaration.typeText, Vocabulary.isStream(typeText) else {
      return .unknown
    }
    // Assigned in an initializer: read them first. The property is no longer in progress then:
    // the initializer assigns it, and may read it after (readInitializers runs once per type).
    if !typesWithInitsRead.contains(type.name) {
      propertiesInProgress.remove(key)
      readInitializers(of: type)
      if let node = propertyNodes[key] { return .stream(node) }
    }
    let base = Vocabulary.baseTypeName(typeText)
    let node = graph.add(
      kind: Vocabulary.recordedKind(base),
      role: Vocabulary.subjects.contains(base) ? .subject : .operator,
      file: declaration.file.path, line: declaration.line, owner: ownerName(type), name: key)
    propertyNodes[key] = node
    holderNodes.insert(node)
    return .stream(node)
  }

  /// `PublishSubject`, `BehaviorRelay`... when `expression` makes a subject or relay.
  func subjectConstruction(_ expression: ExprSyntax) -> String? {
    guard let call = expression.as(FunctionCallExprSyntax.self) else { return nil }
    var callee = call.calledExpression
    if let specialized = callee.as(GenericSpecializationExprSyntax.self) {
      callee = specialized.expression
    }
    let name = Vocabulary.baseTypeName(callee.trimmedDescription)
    return Vocabulary.subjects.contains(name) ? name : nil
  }

  private func readInitializers(of type: TypeDeclaration) {
    guard typesWithInitsRead.insert(type.name).inserted else { return }
    for function in type.functions["init"] ?? [] { _ = read(function, of: type) }
  }

  /// The owner a node of `type` names: its outermost type (`SearchViewModel` for
  /// `SearchViewModel.Output`).
  func ownerName(_ type: TypeDeclaration?) -> String? {
    type.map { String($0.name.split(separator: ".").first ?? "") }
  }

  // MARK: Functions

  func functionKey(_ function: FunctionDeclaration, of type: TypeDeclaration) -> String {
    "\(type.name).\(function.name)@\(function.file.path):\(function.line)"
  }

  /// Reads a function's body once; returns the value it returns (its last `return`, or its one
  /// expression).
  @discardableResult
  func read(_ function: FunctionDeclaration, of type: TypeDeclaration) -> Value {
    let key = functionKey(function, of: type)
    if let result = functionResults[key] { return result }
    guard functionsInProgress.insert(key).inserted else { return .unknown }
    defer { functionsInProgress.remove(key) }
    var scope = Scope(type: type, file: function.file, function: key)
    for parameter in function.parameters {
      if Vocabulary.isStream(parameter.typeText) {
        // A stream handed in: a node that the streams given at the call sites feed.
        let label = function.parameters.map { ($0.label ?? "_") + ":" }.joined()
        let node = graph.add(
          kind: Vocabulary.baseTypeName(parameter.typeText), role: .operator,
          file: function.file.path, line: function.line, owner: ownerName(type),
          name: "\(type.name).\(function.name)(\(label)).\(parameter.name)")
        parameterNodes[key + "#" + parameter.name] = node
        scope.locals[parameter.name] = .stream(node)
      } else if let held = table.lookup(parameter.typeText, from: type.name) {
        scope.locals[parameter.name] = .instance(held)
      }
    }
    var result = body(
      function.statements, returnsValue: function.returnTypeText != nil, in: &scope)
    if case .unknown = result, let returnType = function.returnTypeText,
      let held = table.lookup(returnType, from: type.name)
    {
      result = .instance(held)
    }
    functionResults[key] = result
    return result
  }

  /// The subjects a call of `type`'s function `name` sends into, following the functions it calls.
  func sends(ofCalling name: String, on type: TypeDeclaration) -> [UInt64] {
    var targets: [UInt64] = []
    var seen: Set<String> = []
    var pending = (type.functions[name] ?? []).map { ($0, type) }
    while let (function, owner) = pending.popLast() {
      let key = functionKey(function, of: owner)
      guard seen.insert(key).inserted else { continue }
      read(function, of: owner)
      targets += functionSends[key] ?? []
      for called in functionCalls[key] ?? [] {
        let parts = called.split(separator: "#", maxSplits: 1).map(String.init)
        if let calledType = table.types[parts[0]] {
          pending += (calledType.functions[parts[1]] ?? []).map { ($0, calledType) }
        }
      }
    }
    return targets
  }

  // MARK: Statements

  /// Reads a function's or closure's statements; returns the value it returns (its last
  /// `return`, or its one expression). A subscription returned is the caller's to keep; so is
  /// one expression's when the body returns a value (`returnsValue`: a function declared with a
  /// result, or a closure).
  func body(
    _ statements: CodeBlockItemListSyntax, returnsValue: Bool = true, in scope: inout Scope
  ) -> Value {
    var result = Value.unknown
    for statement in statements {
      if let returned = statement.item.as(ReturnStmtSyntax.self),
        let expression = returned.expression
      {
        result = evaluate(expression, in: &scope)
        handOver(result, to: "returned")
      } else if statements.count == 1, let expression = statement.item.as(ExprSyntax.self) {
        result = evaluate(expression, in: &scope)
        if returnsValue {
          handOver(result, to: "returned")
        } else if case .subscription(let terminal) = result, terminals[terminal]?.bag == nil {
          terminals[terminal]?.discarded = true
        }
      } else {
        walk(Syntax(statement.item), in: &scope)
      }
    }
    return result
  }

  /// Reads statements in order, keeping the locals they declare.
  func walk(_ node: Syntax, in scope: inout Scope) {
    if let list = node.as(CodeBlockItemListSyntax.self) {
      for item in list { walk(Syntax(item.item), in: &scope) }
    } else if let variable = node.as(VariableDeclSyntax.self) {
      for binding in variable.bindings {
        guard let initializer = binding.initializer?.value else { continue }
        let value = evaluate(initializer, in: &scope)
        if let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text {
          scope.locals[name] = value
          if case .subscription(let terminal) = value { terminals[terminal]?.bag = "a variable" }
        }
      }
    } else if let expression = node.as(ExprSyntax.self) {
      let value = evaluate(expression, in: &scope)
      if case .subscription(let terminal) = value, terminals[terminal]?.bag == nil {
        terminals[terminal]?.discarded = true
      }
    } else if let condition = node.as(OptionalBindingConditionSyntax.self) {
      if let initializer = condition.initializer?.value,
        let name = condition.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
      {
        scope.locals[name] = evaluate(initializer, in: &scope)
      }
    } else if let function = node.as(FunctionDeclSyntax.self) {
      // A top-level function, or one nested in a function: read where it is declared, its
      // parameters shadowing what they are named after. (Methods are read with their types.)
      guard let body = function.body else { return }
      var inner = scope
      for parameter in function.signature.parameterClause.parameters {
        let held = table.lookup(parameter.type.trimmedDescription, from: scope.type?.name)
        inner.locals[(parameter.secondName ?? parameter.firstName).text] =
          held.map { .instance($0) } ?? .unknown
      }
      walk(Syntax(body.statements), in: &inner)
    } else if node.is(ClassDeclSyntax.self)
      || node.is(StructDeclSyntax.self) || node.is(EnumDeclSyntax.self)
      || node.is(ExtensionDeclSyntax.self) || node.is(ProtocolDeclSyntax.self)
    {
      return  // declarations are read with their types
    } else if let loop = node.as(ForStmtSyntax.self) {
      // The loop's variables shadow what they are named after, inside the body only.
      _ = evaluate(loop.sequence, in: &scope)
      var inner = scope
      for token in loop.pattern.tokens(viewMode: .sourceAccurate) {
        if case .identifier(let name) = token.tokenKind { inner.locals[name] = .unknown }
      }
      walk(Syntax(loop.body), in: &inner)
    } else if node.is(CodeBlockSyntax.self) || node.is(SwitchCaseSyntax.self) {
      // A block's declarations end with it (`if`, `guard`, `do`, a `switch` case).
      var inner = scope
      for child in node.children(viewMode: .sourceAccurate) { walk(child, in: &inner) }
    } else {
      for child in node.children(viewMode: .sourceAccurate) { walk(child, in: &scope) }
    }
  }

  // MARK: Expressions

  /// The value of `expression`, recording the nodes and edges it makes on the way.
  func evaluate(_ expression: ExprSyntax, in scope: inout Scope) -> Value {
    if let tuple = expression.as(TupleExprSyntax.self), tuple.elements.count == 1 {
      return evaluate(tuple.elements.first!.expression, in: &scope)
    }
    if let optional = expression.as(OptionalChainingExprSyntax.self) {
      return evaluate(optional.expression, in: &scope)
    }
    if let forced = expression.as(ForceUnwrapExprSyntax.self) {
      return evaluate(forced.expression, in: &scope)
    }
    if let tried = expression.as(TryExprSyntax.self) {
      return evaluate(tried.expression, in: &scope)
    }
    if let awaited = expression.as(AwaitExprSyntax.self) {
      return evaluate(awaited.expression, in: &scope)
    }
    if let reference = expression.as(DeclReferenceExprSyntax.self) {
      return resolve(reference.baseName.text, in: scope)
    }
    if let member = expression.as(MemberAccessExprSyntax.self) {
      return memberValue(member, in: &scope)
    }
    if let call = expression.as(FunctionCallExprSyntax.self) {
      return self.call(call, in: &scope)
    }
    if expression.is(KeyPathExprSyntax.self) {
      return .unknown  // `\.count` names a member of the element, not a property of this type
    }
    if let closure = expression.as(ClosureExprSyntax.self) {
      walkClosure(closure, in: scope)
      return .unknown
    }
    if let sequence = expression.as(SequenceExprSyntax.self) {
      return assignment(sequence, in: &scope)
    }
    if let array = expression.as(ArrayExprSyntax.self) {
      for element in array.elements {
        handOver(evaluate(element.expression, in: &scope), to: "an array")
      }
      return .unknown
    }
    for child in expression.children(viewMode: .sourceAccurate) { walk(child, in: &scope) }
    return .unknown
  }

  private func resolve(_ name: String, in scope: Scope) -> Value {
    if name == "self" { return scope.type.map { .instance($0) } ?? .unknown }
    if let local = scope.locals[name] { return local }
    if let type = scope.type, type.properties[name] != nil { return property(name, of: type) }
    return .unknown
  }
}
