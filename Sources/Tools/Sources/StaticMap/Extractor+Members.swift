import StreamsTrace
import SwiftSyntax

/// Members (`viewModel.output`, `Service.shared`, `button.rx.tap`) and assignments.
extension Extractor {
  func memberValue(_ member: MemberAccessExprSyntax, in scope: inout Scope) -> Value {
    let name = member.declName.baseName.text
    guard let baseExpression = member.base else { return .unknown }
    // `Service.shared`: a static property holding an instance of a known type.
    if let typeName = baseExpression.as(DeclReferenceExprSyntax.self)?.baseName.text,
      scope.locals[typeName] == nil, scope.type?.properties[typeName] == nil,
      let type = table.lookup(typeName, from: scope.type?.name),
      let declaration = type.staticProperties[name]
    {
      return staticProperty(name, declaration, of: type)
    }
    let base = evaluate(baseExpression, in: &scope)
    switch base {
    case .instance(let type):
      if type.properties[name] != nil { return property(name, of: type) }
      if name == "rx" { return .reactive }
      return .unknown
    case .reactive:
      // `button.rx.tap`: a source each time it is read.
      let node = graph.add(
        kind: "rx.\(name)", role: .source, file: scope.file.path, line: scope.file.line(of: member),
        owner: ownerName(scope.type))
      return .stream(node)
    case .stream(let upstream) where !Vocabulary.notOperators.contains(name):
      // A property that is a stream of the stream: `text.orEmpty`, `driver.asObservable`.
      let node = graph.add(
        kind: name, role: .operator, file: scope.file.path,
        line: scope.file.line(of: member.declName), owner: ownerName(scope.type))
      graph.subscribe(node, to: upstream)
      return .stream(node)
    default:
      return name == "rx" ? .reactive : .unknown
    }
  }

  /// The value of `type`'s static property `name`, read once: an instance of a known type
  /// (`Service.shared`), or a stream named `Type.name` (`Bus.events`). A property whose
  /// initializer reads itself is unknown.
  private func staticProperty(
    _ name: String, _ declaration: PropertyDeclaration, of type: TypeDeclaration
  ) -> Value {
    let key = type.name + "." + name
    if let known = staticValues[key] { return known }
    guard staticsInProgress.insert(key).inserted else { return .unknown }
    defer { staticsInProgress.remove(key) }
    var value = Value.unknown
    if let typeText = declaration.typeText, let held = table.lookup(typeText, from: type.name) {
      value = .instance(held)
    } else if let initializer = declaration.initializer {
      if let subject = subjectConstruction(initializer) {
        value = .stream(
          graph.add(
            kind: Vocabulary.recordedKind(subject), role: .subject, file: declaration.file.path,
            line: declaration.line, owner: ownerName(type), name: key))
      } else {
        var inner = Scope(type: type, file: declaration.file)
        value = evaluate(initializer, in: &inner)
        if let node = value.stream { graph.name(node, key) }
      }
    }
    staticValues[key] = value
    return value
  }

  /// `_ = x.subscribe(...)`, `self.results = query.map(...)`: assignments.
  func assignment(_ sequence: SequenceExprSyntax, in scope: inout Scope) -> Value {
    let elements = Array(sequence.elements)
    guard elements.count == 3, elements[1].is(AssignmentExprSyntax.self) else {
      // `disposables += [a.subscribe()]`, `x ?? y.subscribe()`: in the hands of the operator.
      for element in elements { handOver(evaluate(element, in: &scope), to: "an operator") }
      return .unknown
    }
    let value = evaluate(elements[2], in: &scope)
    if elements[0].is(DiscardAssignmentExprSyntax.self) {
      if case .subscription(let terminal) = value { terminals[terminal]?.discarded = true }
      return .unknown
    }
    // `self.x = ...` or `x = ...` for a property of this type.
    var propertyName: String?
    if let member = elements[0].as(MemberAccessExprSyntax.self),
      member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "self"
    {
      propertyName = member.declName.baseName.text
    } else if let reference = elements[0].as(DeclReferenceExprSyntax.self),
      scope.locals[reference.baseName.text] == nil
    {
      propertyName = reference.baseName.text
    }
    if let type = scope.type, let name = propertyName, type.properties[name] != nil {
      let key = type.name + "." + name
      if case .subscription(let terminal) = value { terminals[terminal]?.bag = "self.\(name)" }
      if let node = value.stream {
        if let existing = propertyNodes[key] {
          // A holder (the property was read before this assignment) takes what is assigned and
          // is left out of the graph; `self.items = ...` names it, as in a run. A property
          // assigned a second time keeps its first stream: the second is no upstream of it.
          if existing != node, holderNodes.contains(existing) {
            graph.subscribe(existing, to: node)
            graph.name(node, key)
          }
        } else {
          propertyNodes[key] = node
          graph.name(node, key)
        }
      }
    } else if let local = elements[0].as(DeclReferenceExprSyntax.self)?.baseName.text {
      scope.locals[local] = value
    } else {
      _ = evaluate(elements[0], in: &scope)
    }
    return .unknown
  }
}
