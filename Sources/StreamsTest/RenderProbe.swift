import Dispatch
import Observation

/// Stands in for a SwiftUI view in tests: renders `body` under Observation tracking, and when
/// something it read changes, renders again on the main actor's next turn, as SwiftUI re-renders
/// an invalidated view.
///
/// ```swift
/// let state = UIState()
/// let probe = RenderProbe { state.contentAlpha.value.title }
/// state.contentBeta.value = ContentBeta(count: 2)
/// await RenderProbe.nextTurn()
/// // probe.renders == 1: a change of another block does not invalidate this one
/// ```
///
/// The probe counts invalidations (Observation's will-change notifications) and renders, and
/// keeps every rendered output.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
public final class RenderProbe<Output> {
  private let body: @MainActor () -> Output
  /// The outputs of every render, the first one made by `init`.
  public private(set) var outputs: [Output] = []
  /// How many times something the last render read announced a change.
  public private(set) var invalidations = 0

  /// Renders `body` once, now.
  public init(_ body: @escaping @MainActor () -> Output) {
    self.body = body
    render()
  }

  /// How many times `body` ran.
  public var renders: Int { outputs.count }

  /// The output of the latest render.
  public var latest: Output { outputs[outputs.count - 1] }

  private func render() {
    let output = withObservationTracking(body) { [weak self] in
      // Runs before the change, on the writer's thread; SwiftUI renders on a later turn.
      DispatchQueue.main.async {
        MainActor.assumeIsolated {
          guard let self else { return }
          self.invalidations += 1
          self.render()
        }
      }
    }
    outputs.append(output)
  }

  /// Returns once the main queue has run everything queued on it before this call, such as the
  /// re-renders that changes made so far have scheduled.
  public static func nextTurn() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      DispatchQueue.main.async { continuation.resume() }
    }
  }
}
