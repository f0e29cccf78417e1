// Differential fuzzing: random pipelines run on Streams (on a TestScheduler) and in the reference
// model; every event, tick and source subscription must match.
//
//   swift test --filter DifferentialTests                     (10,000 cases, new seed)
//   STREAMS_FUZZ_SEED=123 STREAMS_FUZZ_CASES=1000000 swift test --filter DifferentialTests

import Foundation
import Streams
import StreamsTest
import Testing

/// An error a test source sends, with its code.
struct FuzzError: Error, Equatable {
  let code: Int
}

/// The model's code for an error Streams sent.
func errorCode(_ error: any Error) -> Int {
  if let error = error as? FuzzError { return error.code }
  if let error = error as? RxError {
    switch error {
    case .timeout: return ErrorCode.timeout
    case .argumentOutOfRange: return ErrorCode.argumentOutOfRange
    default: return ErrorCode.unknown
    }
  }
  return ErrorCode.unknown
}

extension ModelEvent {
  init(_ event: Event<Int>) {
    switch event {
    case .next(let value): self = .next(value)
    case .completed: self = .completed
    case .error(let error): self = .error(errorCode(error))
    }
  }

  var streamsEvent: Event<Int> {
    switch self {
    case .next(let value): return .next(value)
    case .completed: return .completed
    case .error(let code): return .error(FuzzError(code: code))
    }
  }
}

/// What one case gave.
enum CaseOutcome: Equatable {
  case agreed
  /// The model cannot order two things at the same tick; the case says nothing.
  case ambiguous
  case diverged(expected: ModelResult, actual: ModelResult)
}

enum Differential {
  static func check(_ pipeline: Pipeline) -> CaseOutcome {
    let expected: ModelResult
    do {
      expected = try ReferenceModel.run(pipeline)
    } catch {
      return .ambiguous
    }
    let actual = StreamsRunner.run(pipeline)
    return actual == expected ? .agreed : .diverged(expected: expected, actual: actual)
  }

  /// Drops operators and source events while the case still diverges.
  static func shrink(_ pipeline: Pipeline) -> Pipeline {
    var current = pipeline
    var progress = true
    while progress {
      progress = false
      for candidate in shrinkCandidates(current) {
        if case .diverged = check(candidate) {
          current = candidate
          progress = true
          break
        }
      }
    }
    return current
  }

  /// A readable report of a divergence.
  static func report(seed: UInt64, _ pipeline: Pipeline) -> String {
    var text = "seed \(seed) diverges:\n\(pipeline)\n"
    let shrunk = shrink(pipeline)
    text += "shrunk:\n\(shrunk)\n"
    if case .diverged(let expected, let actual) = check(shrunk) {
      text += "  expected (model): \(expected.events)  subscriptions \(expected.subscriptions)\n"
      text += "  actual (Streams): \(actual.events)  subscriptions \(actual.subscriptions)\n"
    }
    return text
  }

  /// Runs `count` cases from `seed` on; returns the reports of the divergences (at most `limit`).
  static func run(seed: UInt64, count: Int, limit: Int = 3) -> (
    agreed: Int, ambiguous: Int, failures: [String]
  ) {
    var agreed = 0
    var ambiguous = 0
    var failures: [String] = []
    var seeds = SplitMix64(seed: seed)
    for _ in 0..<count {
      let caseSeed = seeds.next()
      let pipeline = PipelineGenerator.pipeline(seed: caseSeed)
      switch check(pipeline) {
      case .agreed: agreed += 1
      case .ambiguous: ambiguous += 1
      case .diverged:
        failures.append(report(seed: caseSeed, pipeline))
        if failures.count >= limit { return (agreed, ambiguous, failures) }
      }
    }
    return (agreed, ambiguous, failures)
  }
}

@Suite("differential fuzzing against the reference model")
struct DifferentialTests {
  @Test("random pipelines agree with the model (seed and count from the environment)")
  func randomPipelines() {
    let environment = ProcessInfo.processInfo.environment
    let seed =
      environment["STREAMS_FUZZ_SEED"].flatMap { UInt64($0) }
      ?? UInt64(truncatingIfNeeded: Int64(Date().timeIntervalSince1970 * 1000))
    let count = environment["STREAMS_FUZZ_CASES"].flatMap { Int($0) } ?? 10_000
    let start = Date()
    let result = Differential.run(seed: seed, count: count)
    print(
      "DifferentialTests: seed \(seed), \(count) cases: \(result.agreed) agreed, "
        + "\(result.ambiguous) ambiguous (skipped), \(result.failures.count) diverged, "
        + "\(Int(Date().timeIntervalSince(start) * 1000)) ms")
    for failure in result.failures { print(failure) }
    #expect(result.failures.isEmpty, "seed \(seed): \(result.failures.first ?? "")")
    #expect(result.agreed > count / 2, "most cases must be decidable")
  }
}
