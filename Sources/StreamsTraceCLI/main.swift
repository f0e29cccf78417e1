// `streams-trace`: questions and exports over StreamsTrace dumps. The commands, their messages
// and exit statuses live in `TraceCommand` (StreamsTrace), where they are tested; this file only
// runs it. Run `swift run streams-trace --help`.

import StreamsTrace

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let result = TraceCommand.run(Array(CommandLine.arguments.dropFirst()), environment: .files)
try? TraceFile.write(result.output, toDescriptor: 1)
try? TraceFile.write(result.error, toDescriptor: 2)
exit(result.status.rawValue)
