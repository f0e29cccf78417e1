extension TraceGraph {
  /// Writes the graph in Chrome's JSON trace-event format, for the Perfetto UI
  /// (ui.perfetto.dev) and `chrome://tracing`: a timeline of the recorded deliveries, one track
  /// per node, with an arrow from each delivery to each delivery it caused.
  ///
  /// ```swift
  /// let graph = TraceRecorder.record(configuration: TraceConfiguration(timeline: true)) {
  ///   // ... run the code to look at ...
  /// }
  /// try graph.chromeTrace().write(toFile: "app.trace.json", atomically: true, encoding: .utf8)
  /// // Open app.trace.json in ui.perfetto.dev.
  /// ```
  ///
  /// With the default configuration the graph keeps only the sends into subjects and relays, so
  /// the timeline shows those; record with `TraceConfiguration(timeline: true)` to see every
  /// delivery between nodes.
  ///
  /// What the trace shows:
  /// - **Tracks.** One process per source file (`pid` 1, 2, ... in the order the files first
  ///   appear in ``/StreamsTraceRecording/TraceGraph/nodes``; `process_name` is the file), and in it one thread per node
  ///   (`thread_name` is the node's name when it has one, its kind, file:line, owner and `#id`),
  ///   sorted by line. Receivers and subscribers that ``/StreamsTraceRecording/TraceGraph/nodes`` lacks get a track in a last
  ///   process named `(not in the graph)`. Thread ids follow the process ids, so no `tid` equals
  ///   a `pid`.
  /// - **Slices.** One `X` slice per entry of ``/StreamsTraceRecording/TraceGraph/deliveries``, on the track of the node that
  ///   received it (``/StreamsTraceRecording/TraceGraph/Delivery/to``; for a send into a subject, the subject). Its name is the
  ///   event kind and, when recorded, the value (`next: apple`, cut at 100 characters); its
  ///   `args` hold the `delivery` id, the `event`, the `from` and `to` ids, the sender's
  ///   description (`from_node`), the `cause`, the `hop` and its `queue` (after a hop, where the
  ///   scheduler says), the recorder's `thread` number, the
  ///   recorded `time_ns`, the full `value`, and `end` (which rule below gave its end).
  /// - **Flows.** An arrow (`s` and `f` events with `"bp":"e"` and a unique `id`, named after the
  ///   effect's hop: `direct`, `scheduler` or `task`, category `cause`) from each delivery to each
  ///   delivery whose ``/StreamsTraceRecording/TraceGraph/Delivery/cause`` it is: one arrow per effect, so a fan-out draws several.
  ///   Both ends sit at the start of their slice, which is where Perfetto (the topmost slice open
  ///   on the track) and `chrome://tracing` (the slice enclosing the time) bind them.
  /// - **Subscribe instants.** A thread-scoped `i` instant on the subscriber's track at the first
  ///   time of each subscription and control edge (`subscribe to ...`), and one more at its last
  ///   time when the edge counts two or more subscriptions; `args` give the counts and, for a live
  ///   terminal subscription, its owner and whether the owner is gone (a leak).
  /// - **Live-subscription counters.** A `C` counter (`<kind> #<id> subscriptions`, series
  ///   `live`) for each node whose live count is known at every moment: every subscription to it
  ///   is on a subscription or control edge, none was disposed, and each edge counts at most two
  ///   subscriptions (so that its first and last times are all of them). The counter is 0 until
  ///   the first subscription and steps up at each.
  ///
  /// What it does not show, because the recorder does not keep it:
  /// - **No recorded durations.** A delivery's end is not recorded; each slice ends at the latest
  ///   of: the end of the last delivery it caused directly on its own thread (`end: effects`:
  ///   those ran inside it), and its start plus 1 µs, cut short by the start of the next delivery
  ///   on the same thread that it did not cause (`end: next`: by then it had returned) or not
  ///   (`end: minimum`). Slices on one thread therefore nest as the calls did.
  /// - **No dispose times**, so no counter for nodes whose subscriptions were disposed, and no
  ///   instant for subscriptions between an edge's first and last; edges whose first time is 0
  ///   (a hand-made graph) get no instant.
  /// - Deliveries the bounded ring dropped, and arrows from them: a delivery whose cause is gone
  ///   starts without an arrow (its `args.cause` still names it). An arrow whose effect is timed
  ///   before its cause (a hand-made graph) is left out.
  ///
  /// Times: `ts` and `dur` are microseconds, as the format requires, counted from the earliest
  /// time the trace shows (`otherData.clockBaseNs` gives it in the recorder's clock), written
  /// exactly to the nanosecond: a reader that multiplies by 1000 and truncates, as Perfetto
  /// does, gets the nanosecond back (up to 2^53 ns, some 104 days, after the earliest time).
  /// Deliveries that share a clock reading (common with the default configuration's coarse
  /// clock) are spread 1 ns apart in the order they happened (by time, then id), so every slice
  /// starts at a time of its own and their order and nesting survive. When slices on one node's
  /// track would overlap without nesting (deliveries to one node on two threads at once), the
  /// later ones go to extra tracks named `... [overlap 2]`. `displayTimeUnit` is `"ns"`: how
  /// `chrome://tracing` shows times (Perfetto ignores it).
  ///
  /// The document is UTF-8 JSON: an object with `displayTimeUnit`, `otherData` and
  /// `traceEvents`, one event per line; strings are escaped as ``/StreamsTraceRecording/TraceGraph/dump()`` escapes them; ids and
  /// times above 2^53 are written as strings of digits, to stay exact in readers with double
  /// numbers. Events are in the order Perfetto reads them (by time; at one time, slices before
  /// arrows, arrows before instants and counters), metadata first; `ts` is every timed event's
  /// second key, so that even older Perfetto versions read it before any escaped string.
  ///
  /// - Returns: The trace as a JSON document. Writing it has no side effects; it cannot fail.
  /// - Complexity: O(*d* log *d* + *n* log *n* + *e* + *s*) in the numbers of deliveries,
  ///   nodes, edges and live subscriptions, plus O(*d* × *k*) when a node needs *k* overlap
  ///   tracks.
  public func chromeTrace() -> String {
    ChromeTraceExport(self).render()
  }
}

// MARK: - Layout
