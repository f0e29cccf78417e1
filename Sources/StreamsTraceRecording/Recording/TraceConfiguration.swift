/// What a ``TraceRecorder`` keeps.
public struct TraceConfiguration: Sendable {
  /// How many recent element descriptions each node keeps; 0 records no values (for sensitive
  /// data).
  public var recentValues: Int
  /// How many recent deliveries the trace keeps (for causal chains and cycles).
  public var recentDeliveries: Int
  /// Whether the ring of recent deliveries keeps every delivery from a node to its subscriber,
  /// timed with the precise clock (`true`: for a timeline of the whole pipeline), or only the
  /// sends into subjects and relays, where one event crosses into another object's code
  /// (`false`, the default: enough for chains across files and dynamic cycles, and several times
  /// cheaper; see `Guides/Tracing.md`).
  public var timeline: Bool
  /// Folders holding the app's source, searched to name nodes by the stored properties that
  /// hold them (`CartStore.added`) when a file's full path is not known. Subjects and relays
  /// record their file's full path, which usually suffices on the machine that built the app;
  /// empty by default.
  public var sourceRoots: [String]

  /// A configuration; the defaults keep 8 values per node and the last 4096 sends.
  public init(
    recentValues: Int = 8, recentDeliveries: Int = 4096, timeline: Bool = false,
    sourceRoots: [String] = []
  ) {
    if recentValues < 0 { fatalError("TraceConfiguration: recentValues must not be negative") }
    if recentDeliveries < 0 {
      fatalError("TraceConfiguration: recentDeliveries must not be negative")
    }
    self.recentValues = recentValues
    self.recentDeliveries = recentDeliveries
    self.timeline = timeline
    self.sourceRoots = sourceRoots
  }
}
