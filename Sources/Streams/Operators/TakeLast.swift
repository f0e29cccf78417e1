extension ObservableType {
  /// Emits the last `count` elements when the source completes.
  ///
  /// ```swift
  /// _ = Observable.of(1, 2, 3).takeLast(2).subscribe { print($0) }
  /// // Prints "next(2)", "next(3)", "completed"
  /// ```
  ///
  /// Buffers up to `count` elements and emits them, then `.completed`, when the source completes;
  /// fails (dropping the buffer) when the source fails. Disposal disposes the source and drops the
  /// buffer. A negative `count` stops the program with a message naming the misuse.
  ///
  /// - Parameter count: How many of the last elements to emit.
  public func takeLast(_ count: Int, file: StaticString = #fileID, line: UInt = #line)
    -> Observable<Element>
  {
    precondition(count >= 0, "takeLast(_:): count can't be negative (got \(count))")
    let source = asObservable()
    return Observable(kind: "takeLast", upstreams: [source.traceID], file: file, line: line) {
      observer in
      let sink = GuardedSink(observer)
      var buffer = LastElements<Element>(capacity: count)
      sink.setUpstream(
        source.subscribeNested(
          AnyObserver { event in
            switch event {
            case .next(let element):
              buffer.append(element)
            case .error:
              buffer.removeAll()
              sink.on(event)
            case .completed:
              let elements = buffer.drain()
              for element in elements {
                guard sink.isActive else { return }
                sink.on(.next(element))
              }
              sink.on(.completed)
            }
          }))
      return sink
    }
  }
}

/// A ring buffer keeping the last `capacity` elements appended.
private struct LastElements<Element> {
  let capacity: Int
  private var storage: [Element] = []
  private var start = 0

  init(capacity: Int) {
    self.capacity = capacity
  }

  mutating func append(_ element: Element) {
    guard capacity > 0 else { return }
    if storage.count < capacity {
      storage.append(element)
    } else {
      storage[start] = element
      start = (start + 1) % capacity
    }
  }

  mutating func removeAll() {
    storage = []
    start = 0
  }

  /// The elements, oldest first; empties the buffer.
  mutating func drain() -> [Element] {
    defer { removeAll() }
    return Array(storage[start...] + storage[..<start])
  }
}
