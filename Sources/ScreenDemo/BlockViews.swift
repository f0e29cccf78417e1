// The SwiftUI blocks and their hosting in the UIKit screen's stack view. SwiftUI and UIKit exist
// only on Apple platforms: this code has never been compiled or run by the tests, which run on
// Linux; there `RenderProbe` stands in for the views (see main.swift and the tests).

#if canImport(SwiftUI) && canImport(UIKit)
  import SwiftUI
  import StreamsState
  import UIKit

  /// Block A: reads only the headline cell, so a change of the offers does not invalidate it.
  @available(iOS 17, *)
  struct HeadlineView: View {
    let headline: StateCell<HeadlineBlock>

    var body: some View {
      VStack(alignment: .leading) {
        Text(headline.value.title).font(.headline)
        Text(headline.value.subtitle).font(.subheadline)
      }
    }
  }

  /// Block B: reads only the offers cell.
  @available(iOS 17, *)
  struct OffersView: View {
    let offers: StateCell<OffersBlock>

    var body: some View {
      ForEach(offers.value.offers, id: \.self) { Text($0) }
    }
  }

  @available(iOS 17, *)
  extension UIStackView {
    /// Hosts a SwiftUI block in the old screen's stack view.
    func addBlock(_ view: some View, parent: UIViewController) {
      let host = UIHostingController(rootView: view)
      parent.addChild(host)
      addArrangedSubview(host.view)
      host.didMove(toParent: parent)
    }
  }
#endif
