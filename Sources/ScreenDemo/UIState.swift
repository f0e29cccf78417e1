// The screen's state: what the SwiftUI blocks read. It imports only StreamsState, so it keeps
// compiling after the Rx view model that feeds it is deleted.

import StreamsState

/// Block A, a SwiftUI block: the headline at the top of the screen.
struct HeadlineBlock: Equatable, Sendable {
  var title = ""
  var subtitle = ""
}

/// Block B, a SwiftUI block: the offers carousel.
struct OffersBlock: Equatable, Sendable {
  var offers: [String] = []
}

/// Block D, still a UIKit view, configured by hand.
struct DeltaBlock: Equatable, Sendable {
  var message = ""
}

/// The state container: one cell per SwiftUI block, held as `let`, so a view can never be left
/// holding a replaced object and each block invalidates only its own views. The cells are
/// `nonisolated`, so that view models on no actor, in any module, can bind to them; reading and
/// writing their values stays on the main actor.
@MainActor
final class UIState {
  nonisolated let headline = StateCell(HeadlineBlock())
  nonisolated let offers = StateCell(OffersBlock())
  nonisolated let isLoading = StateCell(true)
}
