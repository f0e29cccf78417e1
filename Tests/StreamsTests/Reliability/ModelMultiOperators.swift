// The model's multi-source and higher-order operators, each written from RxSwift's documented
// behaviour (its operators' tests and sources were read to settle subscription and disposal
// times).

extension ReferenceModel {
  // swift-format-ignore: CyclomaticComplexity
  func multiLog(_ op: MultiOp, _ children: [Node], at start: Int) throws -> [LogItem] {
    let mux = Mux()
    switch op {
    case .merge:
      // Completes when every source completed; each source is disposed when it completes. All
      // sources are subscribed in one go (RxSwift's `MergeArray` subscribes each into a group
      // that is disposed only once subscribing returned).
      var pending = children.count
      mux.handler = { key, time, event in
        if event == .completed {
          mux.remove(key, at: time)
          pending -= 1
          if pending == 0 { mux.writer.emit(time, .completed) }
        } else {
          mux.writer.emit(time, event)
        }
      }
      for child in children {
        try mux.add(try log(child, at: start), at: start, forced: .unlessEnded)
      }
    case .concat:
      // The next source is subscribed when the previous one completes.
      var next = 1
      mux.handler = { [self] key, time, event in
        guard event == .completed else { return mux.writer.emit(time, event) }
        mux.remove(key, at: time)
        if next == children.count { return mux.writer.emit(time, .completed) }
        next += 1
        try mux.add(try log(children[next - 1], at: time), at: time)
      }
      try mux.add(try log(children[0], at: start), at: start)
    case .zip(let collection):
      // RxSwift's `ZipSink` (typed forms): elements queue per source; completes only when every
      // source completed (a source that completed with an empty queue does not end it); a
      // source is disposed when it ends. All sources are subscribed in one go. The collection
      // form (RxSwift's `ZipCollectionTypeSink`, its tests `testZip_NAry_asymmetric`) also
      // completes when a source emits, some queue is empty, and every other source is done.
      var queues = children.map { _ in [Int]() }
      var done = children.map { _ in false }
      var keys: [Int] = []
      mux.handler = { key, time, event in
        let index = keys.firstIndex(of: key) ?? keys.count
        switch event {
        case .next(let value):
          queues[index].append(value)
          if queues.allSatisfy({ !$0.isEmpty }) {
            mux.writer.emit(time, .next(Encode.array(queues.map { $0[0] })))
            for i in queues.indices { queues[i].removeFirst() }
          } else if collection, done.indices.allSatisfy({ $0 == index || done[$0] }) {
            mux.writer.emit(time, .completed)
          }
        case .error: mux.writer.emit(time, event)
        case .completed:
          mux.remove(key, at: time)
          done[index] = true
          if !done.contains(false) { mux.writer.emit(time, .completed) }
        }
      }
      for child in children {
        keys.append(try mux.add(try log(child, at: start), at: start, forced: .always))
      }
    case .combineLatest:
      // RxSwift's `CombineLatestSink`: emits once every source has an element; completes when
      // every source completed, or when a source emits while it is the only one not done and
      // some source has no element yet.
      var latest: [Int?] = children.map { _ in nil }
      var done = children.map { _ in false }
      var keys: [Int] = []
      mux.handler = { key, time, event in
        let index = keys.firstIndex(of: key) ?? keys.count
        switch event {
        case .next(let value):
          latest[index] = value
          if latest.allSatisfy({ $0 != nil }) {
            mux.writer.emit(time, .next(Encode.array(latest.map { $0! })))
          } else if done.indices.allSatisfy({ $0 == index || done[$0] }) {
            mux.writer.emit(time, .completed)
          }
        case .error: mux.writer.emit(time, event)
        case .completed:
          mux.remove(key, at: time)
          done[index] = true
          if !done.contains(false) { mux.writer.emit(time, .completed) }
        }
      }
      for child in children {
        keys.append(try mux.add(try log(child, at: start), at: start, forced: .always))
      }
    case .amb:
      // The first source to send anything wins; the others are disposed then. Sources
      // subscribed after the winner was chosen are subscribed and disposed at once.
      var winner: Int?
      mux.handler = { key, time, event in
        if winner == nil {
          winner = key
          for other in 0..<children.count where other != key { mux.remove(other, at: time) }
        }
        mux.writer.emit(time, event)
      }
      for child in children {
        let childLog = try log(child, at: start)
        if winner != nil {
          mux.discard(childLog, at: start)
        } else {
          try mux.add(childLog, at: start)
        }
      }
    case .takeUntil:
      // RxSwift's `TakeUntilSink`: the other sequence is subscribed first; its element completes
      // the result, its error fails it, its completion only disposes it. The source is
      // subscribed even when the other sequence ended the result while being subscribed.
      mux.handler = { key, time, event in
        if key == 1 { return mux.writer.emit(time, event) }
        switch event {
        case .next: mux.writer.emit(time, .completed)
        case .error: mux.writer.emit(time, event)
        case .completed: mux.remove(key, at: time)
        }
      }
      try mux.add(try log(children[1], at: start), at: start)
      try mux.add(try log(children[0], at: start), at: start, forced: .always)
    case .skipUntil:
      // RxSwift's `SkipUntilSink`: the source is subscribed first; elements pass once the other
      // sequence sent an element (which disposes it); its completion only disposes it. A source
      // completing before that ends the subscription without a terminal event.
      var open = false
      mux.handler = { key, time, event in
        if key == 0 {
          if event == .completed, !open { return mux.writer.finish(at: time) }
          if case .next = event, !open { return }
          return mux.writer.emit(time, event)
        }
        switch event {
        case .next:
          open = true
          mux.remove(key, at: time)
        case .error: mux.writer.emit(time, event)
        case .completed: mux.remove(key, at: time)
        }
      }
      try mux.add(try log(children[0], at: start), at: start)
      try mux.add(try log(children[1], at: start), at: start, forced: .always)
    case .sample:
      // RxSwift's `SampleSequenceSink`: a sampler element or completion sends the element kept
      // since the last one, then completes if the source has completed; each sequence is
      // disposed when it completes. (RxSwift keeps a completed sampler subscribed until the
      // result ends; Streams disposes it at its completion, as its other multi-source operators
      // do with a completed source. No event shows the difference; only the sampler's
      // subscription time does.)
      var kept: Int?
      var sourceDone = false
      mux.handler = { key, time, event in
        if key == 0 {
          switch event {
          case .next(let value): kept = value
          case .error: mux.writer.emit(time, event)
          case .completed:
            sourceDone = true
            mux.remove(key, at: time)
          }
          return
        }
        if case .error = event { return mux.writer.emit(time, event) }
        if event == .completed { mux.remove(key, at: time) }
        if let value = kept {
          kept = nil
          mux.writer.emit(time, .next(value))
        }
        if sourceDone { mux.writer.emit(time, .completed) }
      }
      try mux.add(try log(children[0], at: start), at: start)
      try mux.add(try log(children[1], at: start), at: start, forced: .always)
    case .withLatestFrom:
      // RxSwift's `WithLatestFromSink`: the second sequence is subscribed first; its completion
      // disposes it and keeps its latest element; its error fails the result.
      var latest: Int?
      mux.handler = { key, time, event in
        if key == 0 {
          switch event {
          case .next(let value): latest = value
          case .error: mux.writer.emit(time, event)
          case .completed: mux.remove(key, at: time)
          }
          return
        }
        if case .next(let value) = event {
          if let latest { mux.writer.emit(time, .next(Encode.array([value, latest]))) }
        } else {
          mux.writer.emit(time, event)
        }
      }
      try mux.add(try log(children[1], at: start), at: start)
      try mux.add(try log(children[0], at: start), at: start, forced: .always)
    }
    return try mux.run()
  }

  // swift-format-ignore: CyclomaticComplexity
  func higherLog(_ op: HigherOp, _ outer: Node, _ inners: [Node], at start: Int) throws
    -> [LogItem]
  {
    let mux = Mux()
    let outerKey = 0
    var outerDone = false
    var active: [Int] = []
    var queue: [Int] = []
    /// Subscribes the inner sequence of `value`; it is active unless it ended while being
    /// subscribed.
    func subscribeInner(_ value: Int, at time: Int) throws {
      let node = inners[((value % inners.count) + inners.count) % inners.count]
      let key = try mux.add(try log(node, at: time), at: time)
      if mux.isSubscribed(key) { active.append(key) }
    }
    mux.handler = { key, time, event in
      if key == outerKey {
        switch event {
        case .next(let value):
          switch op {
          case .flatMap:
            try subscribeInner(value, at: time)
          case .flatMapLatest, .switchLatest:
            // The previous inner sequence is disposed, then the new one subscribed.
            for previous in active { mux.remove(previous, at: time) }
            active = []
            try subscribeInner(value, at: time)
          case .flatMapFirst:
            if active.isEmpty { try subscribeInner(value, at: time) }
          case .concatMap:
            // `merge(maxConcurrent: 1)`: later inner sequences wait, unsubscribed.
            if active.isEmpty {
              try subscribeInner(value, at: time)
            } else {
              queue.append(value)
            }
          }
        case .error: mux.writer.emit(time, event)
        case .completed:
          // The outer subscription is disposed; the result completes with the last inner one.
          outerDone = true
          mux.remove(key, at: time)
          if active.isEmpty, queue.isEmpty { mux.writer.emit(time, .completed) }
        }
        return
      }
      switch event {
      case .next: mux.writer.emit(time, event)
      case .error: mux.writer.emit(time, event)
      case .completed:
        mux.remove(key, at: time)
        active.removeAll { $0 == key }
        // The next waiting inner sequence, unless it ends while being subscribed.
        while active.isEmpty, !queue.isEmpty, !mux.finished {
          try subscribeInner(queue.removeFirst(), at: time)
        }
        if active.isEmpty, queue.isEmpty, outerDone { mux.writer.emit(time, .completed) }
      }
    }
    try mux.add(try log(outer, at: start), at: start)
    return try mux.run()
  }
}
