import StreamsTrace
import SwiftSyntax

extension Extractor {
  /// A call: a send, a subscription, `disposed(by:)`, an operator, a factory
  /// (`Observable.merge(a, b)`), a method of a known type, or a type's initializer.
  func call(_ call: FunctionCallExprSyntax, in scope: inout Scope) -> Value {
    var callee = call.calledExpression
    if let specialized = callee.as(GenericSpecializationExprSyntax.self) {
      callee = specialized.expression
    }
    // `PublishSubject<Int>()`, `BehaviorRelay(value: 0)`: a new subject (a local's, here).
    let calleeType = Vocabulary.baseTypeName(callee.trimmedDescription)
    if Vocabulary.subjects.contains(calleeType) {
      evaluateArguments(call, in: &scope)
      return .stream(
        graph.add(
          kind: Vocabulary.recordedKind(calleeType), role: .subject, file: scope.file.path,
          line: scope.file.line(of: call),
          owner: ownerName(scope.type)))
    }
    // A nested type's initializer: `LoginViewModel.Input(name: ...)`.
    if let member = callee.as(MemberAccessExprSyntax.self),
      let base = member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text,
      scope.locals[base] == nil, scope.type?.properties[base] == nil,
      let type = table.lookup(callee.trimmedDescription, from: scope.type?.name),
      type.name.hasSuffix("." + member.declName.baseName.text)
    {
      return construct(type, call, in: &scope)
    }
    if let member = callee.as(MemberAccessExprSyntax.self), let baseExpression = member.base {
      let name = member.declName.baseName.text
      let line = scope.file.line(of: member.declName)
      // A type's static method: `Observable.combineLatest(a, b)`, `Driver.merge(...)`.
      var typeExpression = baseExpression
      if let specialized = typeExpression.as(GenericSpecializationExprSyntax.self) {
        typeExpression = specialized.expression  // `Observable<Int>.interval(...)`
      }
      if let typeName = typeExpression.as(DeclReferenceExprSyntax.self)?.baseName.text,
        Vocabulary.factories.contains(typeName), scope.locals[typeName] == nil
      {
        // Recorded kinds: `create` for Observable's, `Single.create` for a trait's.
        let kind = typeName == "Observable" ? name : "\(typeName).\(name)"
        return factory(kind, call, line: line, in: &scope)
      }
      if Vocabulary.sends.contains(name), isSend(name, call) {
        let target = evaluate(baseExpression, in: &scope)
        note(reference: baseExpression, resolved: target.stream != nil, in: scope)
        evaluateArguments(call, in: &scope)
        if let subject = target.stream { send(into: subject, at: line, in: &scope) }
        return .unknown
      }
      if let kind = Vocabulary.terminalKind(name, firstLabel: call.arguments.first?.label?.text) {
        let base = evaluate(baseExpression, in: &scope)
        note(reference: baseExpression, resolved: base.stream != nil, in: scope)
        guard let upstream = base.stream else {
          evaluateArguments(call, in: &scope)
          return .unknown
        }
        return terminal(kind, of: upstream, call, line: line, in: &scope)
      }
      let base = evaluate(baseExpression, in: &scope)
      if name == "dispose" {
        handOver(base, to: "disposed at once")
        return .unknown
      }
      if name == "disposed" {
        if case .subscription(let terminal) = base {
          keep(terminal, in: call.arguments.first?.expression, scope: scope)
        }
        evaluateArguments(call, in: &scope)
        return .unknown
      }
      switch base {
      case .stream(let upstream) where name == "asObservable" && call.arguments.isEmpty:
        return .stream(upstream)  // the same stream, as a recorded trace shows it
      case .stream(let upstream) where !Vocabulary.notOperators.contains(name):
        return `operator`(name, of: [upstream], call, line: line, in: &scope)
      case .instance(let type):
        return method(name, of: type, call, in: &scope)
      case .reactive where Vocabulary.reactiveNonStreams.contains(name):
        // `tableView.rx.items(...)` makes a binder, `rx.setDelegate(_:)` a disposable.
        evaluateArguments(call, in: &scope)
        return .unknown
      case .reactive:
        // `button.rx.controlEvent(.touchUpInside)`, `textField.rx.text(...)`.
        evaluateArguments(call, in: &scope)
        return .stream(
          graph.add(
            kind: "rx.\(name)", role: .source, file: scope.file.path, line: line,
            owner: ownerName(scope.type)))
      default:
        evaluateArguments(call, in: &scope)
        return .unknown
      }
    }
    if let reference = callee.as(DeclReferenceExprSyntax.self) {
      let name = reference.baseName.text
      // A method of this type called without `self.`.
      if let type = scope.type, type.functions[name] != nil, scope.locals[name] == nil {
        return method(name, of: type, call, in: &scope)
      }
      if let type = table.lookup(name, from: scope.type?.name) {
        return construct(type, call, in: &scope)
      }
    }
    _ = evaluate(callee, in: &scope)
    evaluateArguments(call, in: &scope)
    return .unknown
  }

  /// `on(.next(x))` is a send; `on(queue)` is not.
  private func isSend(_ name: String, _ call: FunctionCallExprSyntax) -> Bool {
    guard name == "on" else { return true }
    let argument = call.arguments.first?.expression.trimmedDescription ?? ""
    return argument.hasPrefix(".next") || argument.hasPrefix(".error")
      || argument.hasPrefix(".completed") || argument.hasPrefix("Event.")
  }

  /// A send into `subject` here: a chain edge from the node whose delivery runs this code, or a
  /// root send of the function being read.
  private func send(into subject: UInt64, at line: UInt, in scope: inout Scope) {
    // `observer.onNext` in `Observable.create { observer in ... }`: the node emitting, no send.
    if graph.node(subject).role == .source { return }
    if let sender = scope.delivering {
      graph.chain(from: sender, to: subject, file: scope.file.path)
    } else {
      graph.rootSend(to: subject, file: scope.file.path)
      if let function = scope.function { functionSends[function, default: []].append(subject) }
    }
  }

  /// A terminal node of `kind` subscribing to `upstream`; its closures run during its deliveries,
  /// and `bind(to:)`, `drive(_:)`, `emit(to:)` send into their targets.
  private func terminal(
    _ kind: String, of upstream: UInt64, _ call: FunctionCallExprSyntax, line: UInt,
    in scope: inout Scope
  ) -> Value {
    // `bind(to: cell)` into a state cell is a state binding, as a recorded trace names it.
    var kind = kind
    if kind == "bind(to:)", let target = call.arguments.first?.expression,
      declaredType(of: target, in: scope).map({ Vocabulary.baseTypeName($0) == "StateCell" })
        ?? false
    {
      kind = "bind(to: state)"
    }
    let node = graph.add(
      kind: kind, role: .terminal, file: scope.file.path, line: line, owner: ownerName(scope.type))
    graph.subscribe(node, to: upstream)
    var strongSelf = false
    for closure in closures(of: call) {
      strongSelf = strongSelf || capturesSelfStrongly(closure)
      runClosure(closure, deliveredBy: node, in: scope)
    }
    for argument in call.arguments where !argument.expression.is(ClosureExprSyntax.self) {
      let label = argument.label?.text
      guard label == nil || label == "to" else {
        _ = evaluate(argument.expression, in: &scope)
        continue
      }
      // `bind(to: label.rx.text)`: a UI binder, where elements leave the graph (a recorded
      // trace has no node for it either).
      if isReactiveMember(argument.expression) {
        note(reference: argument.expression, resolved: true, in: scope)
        continue
      }
      // `bind(to: a, b)`, `drive(relay)`, `emit(to: relay)`: targets; `subscribe(observer)` too.
      let target = evaluate(argument.expression, in: &scope)
      note(reference: argument.expression, resolved: target.stream != nil, in: scope)
      if let subject = target.stream { graph.chain(from: node, to: subject, file: scope.file.path) }
    }
    terminals[node] = TerminalUse(
      file: scope.file, line: line, scope: scope, capturesSelfStrongly: strongSelf, bag: nil)
    return .subscription(node)
  }

  /// An operator node of `name` on `upstreams` and the streams among its arguments
  /// (`withLatestFrom(b)`, `merge(with:)`); its closures run during its deliveries, and a closure
  /// that returns a known stream (`flatMapLatest { _ in results }`) makes it an upstream.
  private func `operator`(
    _ name: String, of upstreams: [UInt64], _ call: FunctionCallExprSyntax, line: UInt,
    in scope: inout Scope
  ) -> Value {
    let label = call.arguments.first?.label?.text
    let kind = label.map { Vocabulary.kindLabels.contains($0) ? "\(name)(\($0):)" : name } ?? name
    let node = graph.add(
      kind: kind, role: upstreams.isEmpty ? .source : .operator, file: scope.file.path, line: line,
      owner: ownerName(scope.type))
    for upstream in upstreams { graph.subscribe(node, to: upstream) }
    for argument in call.arguments where !argument.expression.is(ClosureExprSyntax.self) {
      for value in streamArguments(argument.expression, in: &scope) {
        graph.subscribe(node, to: value)
      }
    }
    // `create { observer in ... }`, `deferred { ... }`, `using(...)`: the closures run when the
    // stream is subscribed to, during the delivery of whoever subscribes (a flatMap's): their
    // sends belong to the function that makes it, as its callers see them. create's observer is
    // the created stream itself; what deferred's and using's closures return feeds it.
    let creates = kind.hasSuffix("create") && upstreams.isEmpty
    let runsOnSubscribe = creates || (upstreams.isEmpty && (kind == "deferred" || kind == "using"))
    for closure in closures(of: call) {
      if runsOnSubscribe {
        var inner = scope
        inner.delivering = nil
        let returned = runClosure(
          closure, deliveredBy: nil, in: inner, observer: creates ? .stream(node) : nil)
        if !creates, let stream = returned.stream { graph.subscribe(node, to: stream) }
        continue
      }
      if let returned = runClosure(closure, deliveredBy: node, in: scope).stream {
        graph.subscribe(node, to: returned)
      }
    }
    return .stream(node)
  }

  /// `Observable.combineLatest(a, b)`, `Observable.merge([a, b])`, `Observable.just(1)`.
  private func factory(
    _ name: String, _ call: FunctionCallExprSyntax, line: UInt, in scope: inout Scope
  ) -> Value {
    `operator`(name, of: [], call, line: line, in: &scope)
  }

  /// The streams an argument names: itself, or the elements of an array literal.
  private func streamArguments(_ expression: ExprSyntax, in scope: inout Scope) -> [UInt64] {
    if let array = expression.as(ArrayExprSyntax.self) {
      return array.elements.flatMap { streamArguments($0.expression, in: &scope) }
    }
    return evaluate(expression, in: &scope).stream.map { [$0] } ?? []
  }

  /// Reads a closure's body as code that runs during deliveries to `node`; returns the stream it
  /// returns, if it returns a known one.
  @discardableResult
  func runClosure(
    _ closure: ClosureExprSyntax, deliveredBy node: UInt64?, in scope: Scope,
    observer: Value? = nil
  ) -> Value {
    var inner = scope
    if let node {
      inner.delivering = node
      inner.function = nil
    }
    shadowParameters(of: closure, in: &inner)
    if let observer, let parameters = closure.signature?.parameterClause,
      let first = parameterNames(parameters).first
    {
      inner.locals[first] = observer
    }
    return body(closure.statements, in: &inner)
  }

  /// Reads a closure given to code the map does not follow (`DispatchQueue.main.async { }`, an
  /// app's helper) as if it stood where it is written.
  func walkClosure(_ closure: ClosureExprSyntax, in scope: Scope) {
    var inner = scope
    shadowParameters(of: closure, in: &inner)
    walk(Syntax(closure.statements), in: &inner)
  }

  /// A closure's parameters shadow the locals and properties they are named after.
  private func shadowParameters(of closure: ClosureExprSyntax, in scope: inout Scope) {
    guard let parameters = closure.signature?.parameterClause else { return }
    for name in parameterNames(parameters) { scope.locals[name] = .unknown }
  }

  private func parameterNames(_ clause: ClosureSignatureSyntax.ParameterClause) -> [String] {
    switch clause {
    case .simpleInput(let names): names.map(\.name.text)
    case .parameterClause(let parameters):
      parameters.parameters.map { ($0.secondName ?? $0.firstName).text }
    }
  }

  func closures(of call: FunctionCallExprSyntax) -> [ClosureExprSyntax] {
    var found = call.arguments.compactMap { $0.expression.as(ClosureExprSyntax.self) }
    if let trailing = call.trailingClosure { found.append(trailing) }
    found += call.additionalTrailingClosures.map(\.closure)
    return found
  }

  func evaluateArguments(_ call: FunctionCallExprSyntax, in scope: inout Scope) {
    for argument in call.arguments {
      handOver(evaluate(argument.expression, in: &scope), to: "an argument")
    }
    for closure in closures(of: call)
    where !call.arguments.contains(where: { $0.expression.id == closure.id }) {
      walkClosure(closure, in: scope)
    }
  }

  /// The declared type of a stored property an expression names (`state.headline`), if known.
  private func declaredType(of expression: ExprSyntax, in scope: Scope) -> String? {
    var local = scope
    var declaration: PropertyDeclaration?
    if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base,
      case .instance(let type) = evaluate(base, in: &local)
    {
      declaration = type.properties[member.declName.baseName.text]
    } else if let reference = expression.as(DeclReferenceExprSyntax.self), let type = scope.type {
      declaration = type.properties[reference.baseName.text]
    }
    guard let declaration else { return nil }
    if let typeText = declaration.typeText { return typeText }
    // `let headline = StateCell(...)`: the type it constructs.
    var callee = declaration.initializer?.as(FunctionCallExprSyntax.self)?.calledExpression
    if let specialized = callee?.as(GenericSpecializationExprSyntax.self) {
      callee = specialized.expression
    }
    return callee?.trimmedDescription
  }

  /// Whether `expression` is a member of RxCocoa's reactive extensions: `label.rx.text`,
  /// `tableView.rx.items(cellIdentifier: "Cell")`.
  private func isReactiveMember(_ expression: ExprSyntax) -> Bool {
    var current: ExprSyntax? = expression
    while let node = current {
      if let call = node.as(FunctionCallExprSyntax.self) {
        current = call.calledExpression
      } else if let member = node.as(MemberAccessExprSyntax.self) {
        if member.declName.baseName.text == "rx" { return true }
        current = member.base
      } else {
        return false
      }
    }
    return false
  }

  /// Whether a closure uses `self` without capturing it weakly or unowned.
  private func capturesSelfStrongly(_ closure: ClosureExprSyntax) -> Bool {
    if let captures = closure.signature?.capture?.items {
      for capture in captures where capture.name.text == "self" {
        if let specifier = capture.specifier?.specifier.text,
          specifier == "weak" || specifier == "unowned"
        {
          return false
        }
      }
    }
    return closure.statements.tokens(viewMode: .sourceAccurate).contains {
      $0.tokenKind == .keyword(.self)
    }
  }
}
