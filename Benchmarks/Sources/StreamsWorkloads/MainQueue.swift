import Dispatch

/// Runs workload code on the main queue, where state-cell bindings write synchronously: at once
/// when the caller is already there (the malloc check's top-level code), otherwise by
/// `DispatchQueue.main.sync` (the benchmark runner's thread).
enum MainQueue {
  private static let key: DispatchSpecificKey<UInt8> = {
    let key = DispatchSpecificKey<UInt8>()
    DispatchQueue.main.setSpecific(key: key, value: 1)
    return key
  }()

  static func run<Result: Sendable>(_ body: @MainActor () -> Result) -> Result {
    if DispatchQueue.getSpecific(key: key) != nil {
      return MainActor.assumeIsolated(body)
    }
    return DispatchQueue.main.sync { MainActor.assumeIsolated(body) }
  }
}
