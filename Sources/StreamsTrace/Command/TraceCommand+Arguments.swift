// The command line's parsing: the arguments of one command and the errors it reports.

/// A failed command: its message, status and the usage line to show.
struct CommandError: Error {
  var message: String
  var status: TraceCommand.Status
  var hint: String?

  static func usage(_ message: String, command: String?) -> CommandError {
    let usage = TraceCommand.commands.first { $0.name == command }.map { "usage: \($0.usage)" }
    return CommandError(
      message: message, status: .usage,
      hint: usage ?? "run `streams-trace --help` for the commands")
  }
}

/// The parsed arguments of one command: positional arguments and options.
struct Arguments {
  var command: String
  var positional: [String] = []
  var options: [String: String] = [:]
  var flags: Set<String> = []

  /// Splits `arguments` (after the command) into positional ones, options taking a value and
  /// flags; anything else is a usage error naming the argument.
  init(
    command: String, _ arguments: ArraySlice<String>, options valued: Set<String>,
    flags known: Set<String>
  ) throws(CommandError) {
    self.command = command
    var index = arguments.startIndex
    var onlyPositional = false
    while index < arguments.endIndex {
      let argument = arguments[index]
      index += 1
      if onlyPositional || argument == "-" || !argument.hasPrefix("-") {
        positional.append(argument)
        continue
      }
      if argument == "--" {
        onlyPositional = true
        continue
      }
      var name = argument
      var inline: String?
      if let equals = argument.firstIndex(of: "=") {
        name = String(argument[..<equals])
        inline = String(argument[argument.index(after: equals)...])
      }
      if valued.contains(name) {
        guard options[name] == nil else {
          throw .usage("\(name) given twice", command: command)
        }
        if let inline {
          options[name] = inline
        } else if index < arguments.endIndex {
          options[name] = arguments[index]
          index += 1
        } else {
          throw .usage("\(name) needs a value", command: command)
        }
      } else if known.contains(name), inline == nil {
        flags.insert(name)
      } else {
        throw .usage("unknown option '\(argument)' for \(command)", command: command)
      }
    }
  }

  /// Exactly `count` positional arguments named `names`.
  func expectPositional(_ names: [String]) throws(CommandError) {
    if positional.count < names.count {
      throw .usage("missing \(names[positional.count])", command: command)
    }
    if positional.count > names.count {
      throw .usage(
        "unexpected argument '\(positional[names.count])'", command: command)
    }
  }
}

extension CommandError {
  static func data(_ message: String) -> CommandError {
    CommandError(message: message, status: .badInput)
  }
}
