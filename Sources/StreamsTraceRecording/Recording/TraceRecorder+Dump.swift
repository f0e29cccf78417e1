import Streams
import StreamsShims

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension TraceRecorder {
  /// Writes what was recorded so far as a dump (``TraceGraph/dump()``) to the file at `path`,
  /// replacing it: the file to attach to a bug report, or to read with `streams-trace`.
  ///
  /// ```swift
  /// try recorder.dump(to: "/tmp/app.dump.json")
  /// ```
  public func dump(to path: String) throws(TraceFile.Error) {
    try TraceFile.write(graph.dump(), to: path)
  }

  /// Writes a dump to `path` when the process exits through `exit` or by returning from `main`
  /// (not when it crashes or is killed).
  ///
  /// ```swift
  /// AppTrace.recorder.dumpAtExit(to: NSTemporaryDirectory() + "app.dump.json")
  /// ```
  public func dumpAtExit(to path: String) {
    let first = ExitDumps.shared.withLock { dumps in
      dumps.append((self, path))
      return dumps.count == 1
    }
    if first { atexit { ExitDumps.writeAll() } }
  }

  /// Writes a dump to `path` each time the process receives `signalNumber` (`SIGUSR1` unless
  /// told otherwise), until the returned trigger is cancelled: `kill -USR1 <pid>` takes a dump
  /// from a running app. One trigger per signal: a new one replaces the one before. Cancelling
  /// puts back the signal's default action.
  ///
  /// The signal handler only writes a byte to a pipe; a thread of the trigger's own reads it and
  /// writes the dump, so the dump may take locks and allocate as usual.
  ///
  /// ```swift
  /// let trigger = recorder.dumpOnSignal(to: "/tmp/app.dump.json")
  /// // ... later, if the app no longer wants it:
  /// trigger.cancel()
  /// ```
  ///
  /// - Parameters:
  ///   - signalNumber: The signal that triggers a dump; `SIGUSR1` by default.
  ///   - path: The file each dump is written to (replaced on each dump).
  ///   - written: Called after each dump, on the trigger's thread, with the error if
  ///     writing failed.
  public func dumpOnSignal(
    _ signalNumber: Int32 = SIGUSR1, to path: String,
    written: @escaping @Sendable (TraceFile.Error?) -> Void = { _ in }
  ) -> DumpTrigger {
    var ends: [Int32] = [-1, -1]
    if pipe(&ends) != 0 {
      fatalError("StreamsTrace.dumpOnSignal: pipe() failed: \(String(cString: strerror(errno)))")
    }
    let trigger = DumpTrigger(signal: signalNumber, readEnd: ends[0], writeEnd: ends[1])
    let previous = streams_trace_watch_signal(signalNumber, ends[1])
    if previous >= 0 { close(previous) }  // the trigger before ends: its thread reads EOF
    DumpTrigger.startReading(ends[0]) { [weak self] in
      guard let self else { return }
      do throws(TraceFile.Error) {
        try self.dump(to: path)
        written(nil)
      } catch {
        written(error)
      }
    }
    return trigger
  }
}

/// Stops the dumps ``TraceRecorder/dumpOnSignal(_:to:written:)`` takes.
public final class DumpTrigger: Sendable {
  private let signal: Int32
  private let writeEnd: Int32

  init(signal: Int32, readEnd: Int32, writeEnd: Int32) {
    self.signal = signal
    self.writeEnd = writeEnd
  }

  /// No more dumps on the signal; its default action is back. Does nothing when a newer trigger
  /// took the signal over.
  public func cancel() {
    // Only the trigger that still watches the signal stops it (compare-and-set in effect: a
    // newer trigger's descriptor is put back at once).
    let current = streams_trace_watch_signal(signal, -1)
    if current != writeEnd, current >= 0 {
      _ = streams_trace_watch_signal(signal, current)
      return
    }
    if current == writeEnd { close(writeEnd) }
  }

  /// Reads the pipe's bytes on a thread of its own, calling `dump` for each, until the write
  /// end is closed.
  static func startReading(_ readEnd: Int32, dump: @escaping @Sendable () -> Void) {
    let context = Unmanaged.passRetained(Reader(readEnd: readEnd, dump: dump)).toOpaque()
    #if canImport(Darwin)
      var thread: pthread_t?
    #else
      var thread = pthread_t()
    #endif
    let result = pthread_create(
      &thread, nil,
      { raw in
        #if canImport(Darwin)
          let reader = Unmanaged<Reader>.fromOpaque(raw).takeRetainedValue()
        #else
          let reader = Unmanaged<Reader>.fromOpaque(raw!).takeRetainedValue()
        #endif
        reader.run()
        return nil
      }, context)
    if result != 0 { fatalError("StreamsTrace.dumpOnSignal: pthread_create failed (\(result))") }
    #if canImport(Darwin)
      pthread_detach(thread!)
    #else
      pthread_detach(thread)
    #endif
  }

  /// The loop on the trigger's thread.
  final class Reader: Sendable {
    let readEnd: Int32
    let dump: @Sendable () -> Void

    init(readEnd: Int32, dump: @escaping @Sendable () -> Void) {
      self.readEnd = readEnd
      self.dump = dump
    }

    func run() {
      var byte: UInt8 = 0
      while true {
        let count = read(readEnd, &byte, 1)
        if count == 1 {
          dump()
        } else if count < 0, errno == EINTR {
          continue
        } else {
          break
        }
      }
      close(readEnd)
    }
  }
}

/// The dumps to write at exit.
enum ExitDumps {
  static let shared = Locked<[(TraceRecorder, String)]>([])

  static func writeAll() {
    for (recorder, path) in shared.withLock({ $0 }) {
      try? recorder.dump(to: path)
    }
  }
}
