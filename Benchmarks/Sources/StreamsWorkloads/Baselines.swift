/// Plain-Swift baselines: the same work written by hand with closures in arrays and loops, no
/// locks, no disposal, no event enum. Each stage is a stored closure made by a function the
/// optimizer does not inline, so the baseline pays for the indirect calls a reactive chain makes
/// and nothing else.
public enum Baselines {
  /// A hand-made "subject": an array of observer closures.
  final class Observers {
    var closures: [(Int) -> Void] = []

    func send(_ value: Int) {
      for closure in closures { closure(value) }
    }
  }

  @inline(never)
  static func opaque<Input, Output>(_ closure: @escaping (Input) -> Output) -> (Input) -> Output {
    closure
  }

  /// map → filter → sink as three stored closures behind one observer slot.
  @Sendable public static func subjectMapFilter() -> Workload {
    let observers = Observers()
    let counter = Counter()
    let transform = opaque { (value: Int) in value &+ 1 }
    let predicate = opaque { (value: Int) in value != 0 }
    let sink = opaque { (value: Int) in counter.value &+= value }
    observers.closures.append { value in
      let mapped = transform(value)
      if predicate(mapped) { sink(mapped) }
    }
    return Workload(
      run: { count in
        for index in 0..<count { observers.send(index) }
      },
      checksum: { counter.value },
      tearDown: {})
  }

  /// Appends a keyed closure to an array and removes it again.
  @Sendable public static func subscribeDispose() -> Workload {
    let counter = Counter()
    let keyed = KeyedObservers()
    return Workload(
      run: { count in
        for _ in 0..<count {
          let key = keyed.add { counter.value &+= $0 }
          keyed.remove(key)
        }
      },
      checksum: { counter.value &+ keyed.nextKey },
      tearDown: {})
  }

  /// Adds a closure to a dictionary holding `present` others and removes it.
  @Sendable public static func subscribeDispose(at present: Int) -> Workload {
    let counter = Counter()
    let keyed = HashedObservers()
    for _ in 0..<present { _ = keyed.add { counter.value &+= $0 } }
    return Workload(
      run: { count in
        for _ in 0..<count {
          let key = keyed.add { counter.value &+= $0 }
          keyed.remove(key)
        }
      },
      checksum: { counter.value &+ keyed.nextKey },
      tearDown: {})
  }

  /// Removes closures one by one from a dictionary of 10,000 (the bag's keys in order).
  @Sendable public static func bagTeardown() -> Workload {
    let counter = Counter()
    let held = Held<(HashedObservers, [Int])>()
    return Workload(
      prepare: { count in
        held.value = nil
        let keyed = HashedObservers()
        for _ in 0..<max(0, 10_000 - count) { _ = keyed.add { counter.value &+= $0 } }
        let keys = (0..<count).map { _ in keyed.add { counter.value &+= $0 } }
        held.value = (keyed, keys)
      },
      run: { _ in
        guard let (keyed, keys) = held.value else { return }
        for key in keys { keyed.remove(key) }
      },
      checksum: { counter.value },
      tearDown: { held.value = nil })
  }

  /// Composes map → filter → map into one closure, adds it, removes it.
  @Sendable public static func chain3SubscribeDispose() -> Workload {
    let counter = Counter()
    let keyed = KeyedObservers()
    let first = opaque { (value: Int) in value &+ 1 }
    let predicate = opaque { (value: Int) in value != 0 }
    let second = opaque { (value: Int) in value &* 2 }
    return Workload(
      run: { count in
        for _ in 0..<count {
          let sink = opaque { (value: Int) in counter.value &+= value }
          let key = keyed.add { value in
            let mapped = first(value)
            if predicate(mapped) { sink(second(mapped)) }
          }
          keyed.remove(key)
        }
      },
      checksum: { counter.value &+ keyed.nextKey },
      tearDown: {})
  }

  /// An array of 1000 closures called in a loop.
  @Sendable public static func fanout1000() -> Workload {
    let observers = Observers()
    let counter = Counter()
    for _ in 0..<1000 { observers.closures.append(opaque { counter.value &+= $0 }) }
    return Workload(
      run: { count in
        for index in 0..<count { observers.send(index) }
      },
      checksum: { counter.value },
      tearDown: {})
  }

  /// Each event calls a function that hands it to a continuation, as `just` would.
  @Sendable public static func flatMapJust() -> Workload {
    let observers = Observers()
    let counter = Counter()
    let sink = opaque { (value: Int) in counter.value &+= value }
    let inner = opaque { (value: Int) in { (receive: (Int) -> Void) in receive(value) } }
    observers.closures.append { value in inner(value)(sink) }
    return Workload(
      run: { count in
        for index in 0..<count { observers.send(index) }
      },
      checksum: { counter.value },
      tearDown: {})
  }

  /// Two hand-made subjects; a combiner keeps the latest of each and calls the selector and sink.
  @Sendable public static func combineLatest2() -> Workload {
    let first = Observers()
    let second = Observers()
    let counter = Counter()
    let selector = opaque { (pair: (Int, Int)) in pair.0 &+ pair.1 }
    let sink = opaque { (value: Int) in counter.value &+= value }
    let latest = LatestPair()
    first.closures.append { value in
      latest.first = value
      sink(selector((latest.first, latest.second)))
    }
    second.closures.append { value in
      latest.second = value
      sink(selector((latest.first, latest.second)))
    }
    return Workload(
      run: { count in
        for index in 0..<count {
          if index & 1 == 0 { first.send(index) } else { second.send(index) }
        }
      },
      checksum: { counter.value },
      tearDown: {})
  }

  /// A `for` loop over the range with the three closures.
  @Sendable public static func rangeMapFilterReduce() -> Workload {
    let counter = Counter()
    let transform = opaque { (value: Int) in value &* 3 }
    let predicate = opaque { (value: Int) in value & 1 == 0 }
    let accumulate = opaque { (pair: (Int, Int)) in pair.0 &+ pair.1 }
    return Workload(
      run: { count in
        var total = 0
        for index in 0..<count {
          let mapped = transform(index)
          if predicate(mapped) { total = accumulate((total, mapped)) }
        }
        counter.value &+= total
      },
      checksum: { counter.value },
      tearDown: {})
  }

  /// Running sum → halve → drop repeats, by hand.
  @Sendable public static func scanDistinct() -> Workload {
    let observers = Observers()
    let counter = Counter()
    let accumulate = opaque { (pair: (Int, Int)) in pair.0 &+ pair.1 }
    let transform = opaque { (value: Int) in value / 2 }
    let sink = opaque { (value: Int) in counter.value &+= value }
    let state = LatestPair()
    var hasLast = false
    observers.closures.append { value in
      state.first = accumulate((state.first, value))
      let mapped = transform(state.first)
      if hasLast, mapped == state.second { return }
      hasLast = true
      state.second = mapped
      sink(mapped)
    }
    return Workload(
      run: { count in
        for _ in 0..<count { observers.send(1) }
      },
      checksum: { counter.value },
      tearDown: {})
  }

  /// A stored value and an array of 10 closures.
  @Sendable public static func behaviorRelay10() -> Workload {
    let observers = Observers()
    let counter = Counter()
    let current = Counter()
    for _ in 0..<10 { observers.closures.append(opaque { counter.value &+= $0 }) }
    return Workload(
      run: { count in
        for index in 0..<count {
          current.value = index
          observers.send(index)
        }
      },
      checksum: { counter.value &+ current.value },
      tearDown: {})
  }

  /// One map closure whose result is stored (the replay) and sent to an array of 10 closures.
  @Sendable public static func shareReplay10() -> Workload {
    let source = Observers()
    let shared = Observers()
    let counter = Counter()
    let latest = Counter()
    let transform = opaque { (value: Int) in value &+ 1 }
    for _ in 0..<10 { shared.closures.append(opaque { counter.value &+= $0 }) }
    source.closures.append { value in
      let mapped = transform(value)
      latest.value = mapped
      shared.send(mapped)
    }
    return Workload(
      run: { count in
        for index in 0..<count { source.send(index) }
      },
      checksum: { counter.value &+ latest.value },
      tearDown: {})
  }

  /// A one-slot timer by hand: an element replaces the pending value and due time; advancing the
  /// clock past the due time delivers it.
  @Sendable public static func debounceVirtual() -> Workload {
    let counter = Counter()
    let sink = opaque { (value: Int) in counter.value &+= value }
    var pending: (value: Int, due: Int)?
    var clock = 0
    let receive = opaque { (value: Int) in pending = (value, clock + 10) }
    let advance = opaque { (time: Int) in
      if let due = pending, due.due <= time {
        pending = nil
        clock = due.due
        sink(due.value)
      }
      clock = time
    }
    return Workload(
      run: { count in
        for index in 0..<count {
          receive(index)
          advance(clock + 20)
        }
      },
      checksum: { counter.value },
      tearDown: {})
  }

  /// A stored value compared with the new one, then one closure: a hand-written setter with a
  /// change callback, what a binding into a cell replaces.
  @Sendable public static func relayBindCell() -> Workload {
    let observers = Observers()
    let counter = Counter()
    let current = Counter()
    observers.closures.append(opaque { counter.value &+= $0 })
    return Workload(
      run: { count in
        for index in 1...max(count, 1) where current.value != index {
          current.value = index
          observers.send(index)
        }
      },
      checksum: { counter.value &+ current.value },
      tearDown: {})
  }
}

/// Closures in an array, with keys to remove them.
final class KeyedObservers {
  var entries: [(key: Int, closure: (Int) -> Void)] = []
  var nextKey = 0

  @inline(never)
  func add(_ closure: @escaping (Int) -> Void) -> Int {
    let key = nextKey
    nextKey += 1
    entries.append((key, closure))
    return key
  }

  @inline(never)
  func remove(_ key: Int) {
    if let index = entries.firstIndex(where: { $0.key == key }) { entries.remove(at: index) }
  }
}

/// Closures under integer keys in a dictionary: O(1) add and remove.
final class HashedObservers {
  var entries: [Int: (Int) -> Void] = [:]
  var nextKey = 0

  @inline(never)
  func add(_ closure: @escaping (Int) -> Void) -> Int {
    let key = nextKey
    nextKey += 1
    entries[key] = closure
    return key
  }

  @inline(never)
  func remove(_ key: Int) {
    entries[key] = nil
  }
}

/// Two integers kept between calls.
final class LatestPair {
  var first = 0
  var second = 0
}
