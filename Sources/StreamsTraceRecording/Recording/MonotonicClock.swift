#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Nanoseconds of a monotonic clock.
enum MonotonicClock {
  /// Precise (tens of nanoseconds to read).
  static var now: UInt64 {
    #if canImport(Darwin)
      return clock_gettime_nsec_np(CLOCK_MONOTONIC_RAW)
    #else
      var spec = timespec()
      // Unprotected: `&spec` would give each caller a stack canary.
      _ = _withUnprotectedUnsafeMutablePointer(to: &spec) { clock_gettime(CLOCK_MONOTONIC, $0) }
      return UInt64(UInt(bitPattern: spec.tv_sec)) &* 1_000_000_000
        &+ UInt64(UInt(bitPattern: spec.tv_nsec))
    #endif
  }

  /// The same clock at the resolution of the scheduler's tick (a few milliseconds), several times
  /// cheaper to read: the time of the sends and edges when not recording a timeline.
  static var coarse: UInt64 {
    #if canImport(Darwin)
      return clock_gettime_nsec_np(CLOCK_MONOTONIC_RAW_APPROX)
    #else
      var spec = timespec()
      // Unprotected: `&spec` would give each caller a stack canary.
      _ = _withUnprotectedUnsafeMutablePointer(to: &spec) {
        clock_gettime(CLOCK_MONOTONIC_COARSE, $0)
      }
      return UInt64(UInt(bitPattern: spec.tv_sec)) &* 1_000_000_000
        &+ UInt64(UInt(bitPattern: spec.tv_nsec))
    #endif
  }
}
