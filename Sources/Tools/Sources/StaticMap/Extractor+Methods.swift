import SwiftSyntax

/// Calls into the app's own types: methods, initializers and memberwise construction, with the
/// streams passed to their parameters.
extension Extractor {
  /// A call of `type`'s method `name`: its sends happen during the current delivery, if any; its
  /// value is what it returns.
  func method(
    _ name: String, of type: TypeDeclaration, _ call: FunctionCallExprSyntax, in scope: inout Scope
  ) -> Value {
    guard let function = matching(type.functions[name] ?? [], call) else {
      evaluateArguments(call, in: &scope)
      return .unknown
    }
    let result = read(function, of: type)
    passArguments(call, to: function, of: type, in: &scope)
    if let function = scope.function {
      functionCalls[function, default: []].insert(type.name + "#" + name)
    }
    if let sender = scope.delivering {
      for subject in sends(ofCalling: name, on: type) {
        graph.chain(from: sender, to: subject, file: scope.file.path)
      }
    }
    return result
  }

  /// The function of `candidates` whose argument labels are the call's, else the first.
  func matching(_ candidates: [FunctionDeclaration], _ call: FunctionCallExprSyntax)
    -> FunctionDeclaration?
  {
    let labels = call.arguments.map { $0.label?.text }
    return candidates.first { function in
      function.parameters.count >= labels.count
        && zip(function.parameters, labels).allSatisfy { $0.label == $1 }
    } ?? candidates.first
  }

  /// Evaluates the call's arguments; each stream given for a stream parameter feeds that
  /// parameter's node.
  func passArguments(
    _ call: FunctionCallExprSyntax, to function: FunctionDeclaration, of type: TypeDeclaration,
    in scope: inout Scope
  ) {
    let key = functionKey(function, of: type)
    for (position, argument) in call.arguments.enumerated() {
      let value = evaluate(argument.expression, in: &scope)
      handOver(value, to: "an argument")
      guard position < function.parameters.count, let source = value.stream,
        let target = parameterNodes[key + "#" + function.parameters[position].name]
      else { continue }
      graph.subscribe(target, to: source)
    }
    for closure in closures(of: call)
    where !call.arguments.contains(where: { $0.expression.id == closure.id }) {
      walkClosure(closure, in: scope)
    }
  }

  /// `Output(items: x)`, `Input(refresh: tap)`: each argument whose label is a stream property
  /// of `type` feeds that property's node.
  func construct(
    _ type: TypeDeclaration, _ call: FunctionCallExprSyntax, in scope: inout Scope
  ) -> Value {
    if let initializer = matching(type.functions["init"] ?? [], call) {
      read(initializer, of: type)
      passArguments(call, to: initializer, of: type, in: &scope)
      return .instance(type)
    }
    // No initializer written: the memberwise one, whose labels are the stored properties.
    for argument in call.arguments {
      let value = evaluate(argument.expression, in: &scope)
      handOver(value, to: "an argument")
      guard let label = argument.label?.text, let source = value.stream,
        let declaration = type.properties[label], let typeText = declaration.typeText,
        Vocabulary.isStream(typeText), case .stream(let target) = property(label, of: type)
      else { continue }
      graph.subscribe(target, to: source)
    }
    // A trailing closure; one given as an argument was read with the arguments.
    for closure in closures(of: call)
    where !call.arguments.contains(where: { $0.expression.id == closure.id }) {
      walkClosure(closure, in: scope)
    }
    return .instance(type)
  }
}
