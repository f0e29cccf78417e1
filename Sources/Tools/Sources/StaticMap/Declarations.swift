import SwiftParser
import SwiftSyntax

/// One Swift file read for the map: its path as the map names it, its tree and what it imports.
final class ParsedFile {
  /// `Folder/Sub/File.swift`: the mapped folder's name, then the path under it.
  let path: String
  let tree: SourceFileSyntax
  let converter: SourceLocationConverter
  let imports: [String]
  /// Whether SwiftSyntax recovered from errors in it.
  let hasErrors: Bool

  init(path: String, text: String) {
    self.path = path
    tree = Parser.parse(source: text)
    converter = SourceLocationConverter(fileName: path, tree: tree)
    imports = tree.statements.compactMap {
      $0.item.as(ImportDeclSyntax.self)?.path.first?.name.text
    }
    hasErrors = tree.hasError
  }

  func line(of node: some SyntaxProtocol) -> UInt {
    UInt(node.startLocation(converter: converter).line)
  }
}

/// A stored property of a type: where it is declared, its declared type (when written) and its
/// initial value (when given).
struct PropertyDeclaration {
  let name: String
  let typeText: String?
  let initializer: ExprSyntax?
  let file: ParsedFile
  let line: UInt
}

/// A method, initializer or property accessor (`items.didSet`), with the type it belongs to.
struct FunctionDeclaration {
  let name: String
  let statements: CodeBlockItemListSyntax
  /// Each parameter's argument label (`nil` for `_`), name inside the body, and type.
  let parameters: [(label: String?, name: String, typeText: String)]
  let returnTypeText: String?
  let file: ParsedFile
  let line: UInt
}

/// What the map knows of one type, its extensions included.
final class TypeDeclaration {
  /// The full name: `SearchViewModel.Output`.
  let name: String
  var properties: [String: PropertyDeclaration] = [:]
  /// Properties in declaration order, for a stable map.
  var propertyOrder: [String] = []
  var functions: [String: [FunctionDeclaration]] = [:]
  /// Static stored properties (`static let shared = Service()`).
  var staticProperties: [String: PropertyDeclaration] = [:]
  var files: [ParsedFile] = []
  /// Whether the source declares it (a class, struct, enum or actor), not only extends it
  /// (`extension Reactive`, `extension ObservableType`).
  var isDeclared = false

  init(name: String) {
    self.name = name
  }
}

/// Every type of every file, with its stored properties and functions, by full name.
struct TypeTable {
  private(set) var types: [String: TypeDeclaration] = [:]
  /// Full names by their last component, for a type named without its enclosing types.
  private var byShortName: [String: [String]] = [:]

  init(_ files: [ParsedFile]) {
    for file in files {
      for statement in file.tree.statements {
        if let decl = statement.item.as(DeclSyntax.self) {
          collect(decl, enclosing: nil, file: file)
        }
      }
    }
  }

  /// The type a written name means, seen from inside `context` (a full type name): a nested type
  /// of the context or of the types around it first, then a top-level one, then one unique by
  /// its last component.
  func lookup(_ written: String, from context: String?) -> TypeDeclaration? {
    let name = Vocabulary.baseTypeName(written)
    guard !name.isEmpty else { return nil }
    var scope = context
    while let current = scope {
      if let found = types[current + "." + name] { return found }
      scope = current.lastIndex(of: ".").map { String(current[..<$0]) }
    }
    if let found = types[name] { return found }
    let last = String(name.split(separator: ".").last ?? "")
    if let candidates = byShortName[last], candidates.count == 1 { return types[candidates[0]] }
    return nil
  }

  private mutating func declaration(_ name: String) -> TypeDeclaration {
    if let existing = types[name] { return existing }
    let made = TypeDeclaration(name: name)
    types[name] = made
    byShortName[String(name.split(separator: ".").last ?? ""), default: []].append(name)
    return made
  }

  private mutating func collect(_ decl: DeclSyntax, enclosing: String?, file: ParsedFile) {
    let name: String
    let members: MemberBlockSyntax
    var declares = true
    if let type = decl.as(ClassDeclSyntax.self) {
      (name, members) = (type.name.text, type.memberBlock)
    } else if let type = decl.as(StructDeclSyntax.self) {
      (name, members) = (type.name.text, type.memberBlock)
    } else if let type = decl.as(EnumDeclSyntax.self) {
      (name, members) = (type.name.text, type.memberBlock)
    } else if let type = decl.as(ActorDeclSyntax.self) {
      (name, members) = (type.name.text, type.memberBlock)
    } else if let type = decl.as(ExtensionDeclSyntax.self) {
      (name, members) = (
        Vocabulary.baseTypeName(type.extendedType.trimmedDescription), type.memberBlock
      )
      declares = false
    } else {
      return
    }
    let full = enclosing.map { $0 + "." + name } ?? name
    let type = declaration(full)
    if declares { type.isDeclared = true }
    if !type.files.contains(where: { $0 === file }) { type.files.append(file) }
    for member in members.members {
      let decl = member.decl
      if let variable = decl.as(VariableDeclSyntax.self) {
        collect(variable, into: type, file: file)
      } else if let function = decl.as(FunctionDeclSyntax.self), let body = function.body {
        let parameters = function.signature.parameterClause.parameters.map(Self.parameter)
        type.functions[function.name.text, default: []].append(
          FunctionDeclaration(
            name: function.name.text, statements: body.statements, parameters: parameters,
            returnTypeText: function.signature.returnClause?.type.trimmedDescription, file: file,
            line: file.line(of: function.name)))
      } else if let initializer = decl.as(InitializerDeclSyntax.self), let body = initializer.body {
        let parameters = initializer.signature.parameterClause.parameters.map(Self.parameter)
        type.functions["init", default: []].append(
          FunctionDeclaration(
            name: "init", statements: body.statements, parameters: parameters,
            returnTypeText: nil, file: file,
            line: file.line(of: initializer.initKeyword)))
      } else {
        collect(decl, enclosing: full, file: file)
      }
    }
  }

  private static func parameter(_ syntax: FunctionParameterSyntax) -> (
    label: String?, name: String, typeText: String
  ) {
    let label = syntax.firstName.text == "_" ? nil : syntax.firstName.text
    return (label, (syntax.secondName ?? syntax.firstName).text, syntax.type.trimmedDescription)
  }

  private func collect(_ variable: VariableDeclSyntax, into type: TypeDeclaration, file: ParsedFile)
  {
    // Static properties are not an instance's streams; kept apart (`Service.shared`).
    let isStatic = variable.modifiers.contains {
      $0.name.text == "static" || $0.name.text == "class"
    }
    for binding in variable.bindings {
      guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else {
        continue
      }
      // A computed property without a setter is no stored property, but its getter's value is
      // what the property reads as: keep it as the initializer when it is one expression.
      var initializer = binding.initializer?.value
      if initializer == nil, let accessors = binding.accessorBlock?.accessors,
        case .getter(let statements) = accessors, statements.count == 1,
        let expression = statements.first?.item.as(ExprSyntax.self)
      {
        initializer = expression
      }
      let declaration = PropertyDeclaration(
        name: name, typeText: binding.typeAnnotation?.type.trimmedDescription,
        initializer: initializer, file: file, line: file.line(of: binding.pattern))
      collectAccessors(of: binding, named: name, into: type, file: file)
      if isStatic {
        type.staticProperties[name] = declaration
        continue
      }
      if type.properties[name] == nil { type.propertyOrder.append(name) }
      type.properties[name] = declaration
    }
  }

  /// The bodies of a property's accessors (`didSet`, `willSet`, `get`, `set`, a getter of several
  /// statements), as functions of the type named `property.accessor`: their subscriptions and
  /// sends are read like a method's.
  private func collectAccessors(
    of binding: PatternBindingSyntax, named name: String, into type: TypeDeclaration,
    file: ParsedFile
  ) {
    switch binding.accessorBlock?.accessors {
    case .getter(let statements) where statements.count > 1:
      type.functions[name + ".get", default: []].append(
        FunctionDeclaration(
          name: name + ".get", statements: statements, parameters: [],
          returnTypeText: binding.typeAnnotation?.type.trimmedDescription, file: file,
          line: file.line(of: binding.pattern)))
    case .accessors(let accessors):
      for accessor in accessors {
        guard let body = accessor.body else { continue }
        let kind = accessor.accessorSpecifier.text
        type.functions[name + "." + kind, default: []].append(
          FunctionDeclaration(
            name: name + "." + kind, statements: body.statements, parameters: [],
            returnTypeText: kind == "get" ? binding.typeAnnotation?.type.trimmedDescription : nil,
            file: file, line: file.line(of: accessor)))
      }
    default:
      break
    }
  }
}
