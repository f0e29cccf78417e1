// A program that misuses the API in the way its argument names, so that a test can check, on a
// release build of it, that the stop still says what went wrong (`precondition` loses its message
// in -O builds; Streams stops with `fatalError`, which keeps it).
//
//   swift build -c release --product MisuseProbe && .build/release/MisuseProbe take-negative

import Streams
import StreamsState

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let misuse = CommandLine.arguments.dropFirst().first ?? ""
switch misuse {
case "take-negative":
  _ = Observable.of(1).take(-1)
case "write-during-update":
  MainActor.assumeIsolated {
    let cell = StateCell(1)
    cell.update { _ in cell.value = 2 }
  }
case "bind-error":
  let relay = PublishRelay<Int>()
  _ = Observable<Int>.error(RxError.unknown).bind(to: relay)
default:
  print("usage: MisuseProbe take-negative | write-during-update | bind-error")
  exit(64)
}
print("MisuseProbe: \(misuse) did not stop the program")
exit(0)
