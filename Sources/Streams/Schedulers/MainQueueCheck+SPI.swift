/// ``MainQueueCheck`` for the other Streams modules (StreamsTest names the main-queue case in its
/// blocking timeout), imported as SPI so that it never appears in an app's namespace.
@_spi(StreamsInternal)
public enum MainQueue {
  /// `true` when the current code runs on the main queue (see ``MainQueueCheck``).
  public static var isCurrent: Bool { MainQueueCheck.isMain }
}
