/// ``MainQueueCheck`` for the other Streams modules (StreamsTest names the main-queue case in its
/// blocking timeout): `package`, so that it never appears in an app's namespace.
package enum MainQueue {
  /// `true` when the current code runs on the main queue (see ``MainQueueCheck``).
  package static var isCurrent: Bool { MainQueueCheck.isMain }
}
