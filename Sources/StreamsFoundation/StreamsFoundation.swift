// StreamsFoundation: the parts of RxSwift and RxCocoa that need all of Foundation, and on Linux
// FoundationNetworking: `NotificationCenter.rx`, `URLSession.rx` and `OperationQueueScheduler`.
// The core (`Streams`) links FoundationEssentials only, for `Date` and `Data`; a file that uses
// these three imports StreamsFoundation, which brings Streams with it.

@_exported import Streams
