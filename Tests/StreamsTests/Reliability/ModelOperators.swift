// The model's single-source operators, each written from RxSwift's documented behaviour.

extension ModelEvent {
  func mapNext(_ transform: (Int) -> Int) -> ModelEvent {
    if case .next(let value) = self { return .next(transform(value)) }
    return self
  }
}

/// An operator with no timer, given as one closure over the upstream events.
private struct EventStep: TimedModelOperator {
  let body: (Int, ModelEvent, inout LogWriter) throws -> Void
  mutating func on(_ time: Int, _ event: ModelEvent, _ writer: inout LogWriter) throws {
    try body(time, event, &writer)
  }
}

private func pipe(
  _ log: [LogItem], _ body: @escaping (Int, ModelEvent, inout LogWriter) throws -> Void
) throws -> [LogItem] {
  var op = EventStep(body: body)
  return try drive(&op, log)
}

extension ReferenceModel {
  func unaryLog(_ op: UnaryOp, _ upstream: Node, at start: Int) throws -> [LogItem] {
    switch op {
    case .startWith(let values):
      // The values are sent while subscribing, then the source is subscribed, even when the
      // consumer ended during the values: RxSwift's `StartWith` subscribes unconditionally and
      // the subscription is disposed at once (its `run` ignores the disposal).
      var items = values.map { LogItem.event(start, .next($0)) }
      for item in try log(upstream, at: start) {
        if case .subscribe(start, let source, let id, _) = item {
          items.append(.subscribe(start, source: source, id: id, forced: true))
        } else {
          items.append(item)
        }
      }
      return items
    case .take(0):
      // RxSwift: `take(0)` is `empty()`: completes at once without subscribing to the source.
      return [.event(start, .completed)]
    case .retry(let attempts):
      return try retryLog(upstream, attempts: attempts, at: start)
    case .delaySubscription(let dueTime):
      return try log(upstream, at: start + dueTime)
    default:
      return try simpleLog(op, try log(upstream, at: start), at: start)
    }
  }

  /// `retry(n)`: n attempts in all; a failed attempt is disposed and the next one subscribed at
  /// the tick of the error; the last attempt's error is forwarded.
  private func retryLog(_ upstream: Node, attempts: Int, at start: Int) throws -> [LogItem] {
    try pipe(try log(upstream, at: start)) { [self] time, event, writer in
      if case .error = event, attempts > 1 {
        writer.closeAll(at: time)
        writer.append(contentsOf: try retryLog(upstream, attempts: attempts - 1, at: time))
      } else {
        writer.emit(time, event)
      }
    }
  }

  // swift-format-ignore: CyclomaticComplexity
  private func simpleLog(_ op: UnaryOp, _ input: [LogItem], at start: Int) throws -> [LogItem] {
    switch op {
    case .mapAdd(let k):
      return try pipe(input) { time, event, writer in writer.emit(time, event.mapNext { $0 + k }) }
    case .mapMod(let k):
      return try pipe(input) { time, event, writer in writer.emit(time, event.mapNext { $0 % k }) }
    case .filterEven:
      return try pipe(input) { time, event, writer in
        if case .next(let value) = event, value % 2 != 0 { return }
        writer.emit(time, event)
      }
    case .compactMap:
      return try pipe(input) { time, event, writer in
        if case .next(let value) = event, value % 3 == 0 { return }
        writer.emit(time, event.mapNext { $0 * 2 })
      }
    case .scan(let seed):
      var state = seed
      return try pipe(input) { time, event, writer in
        writer.emit(
          time,
          event.mapNext {
            state += $0
            return state
          })
      }
    case .reduce(let seed):
      var state = seed
      return try pipe(input) { time, event, writer in
        switch event {
        case .next(let value): state += value
        case .completed:
          writer.emit(time, .next(state))
          writer.emit(time, .completed)
        case .error: writer.emit(time, event)
        }
      }
    case .distinctUntilChanged:
      var last: Int?
      return try pipe(input) { time, event, writer in
        if case .next(let value) = event {
          if value == last { return }
          last = value
        }
        writer.emit(time, event)
      }
    case .take(let count):
      var seen = 0
      return try pipe(input) { time, event, writer in
        writer.emit(time, event)
        guard case .next = event else { return }
        seen += 1
        if seen == count { writer.emit(time, .completed) }
      }
    case .takeLast(let count):
      var buffer: [Int] = []
      return try pipe(input) { time, event, writer in
        switch event {
        case .next(let value):
          buffer.append(value)
          if buffer.count > count { buffer.removeFirst() }
        case .completed:
          for (offset, value) in buffer.enumerated() {
            // RxSwift's sink drops what follows its disposal: a consumer that ended on one value
            // stops the loop, so nothing a later value would start (a forced subscription, see
            // `startWith`) happens. The boundary says so to the writers downstream. (Not in the
            // tick of the subscription, where a boundary would end the subscribing action.)
            if offset > 0, time > start { writer.pass(.boundary(time)) }
            writer.emit(time, .next(value))
          }
          writer.emit(time, .completed)
        case .error: writer.emit(time, event)
        }
      }
    case .skip(let count):
      var seen = 0
      return try pipe(input) { time, event, writer in
        if case .next = event {
          seen += 1
          if seen <= count { return }
        }
        writer.emit(time, event)
      }
    case .takeWhile(let limit):
      return try pipe(input) { time, event, writer in
        if case .next(let value) = event, value >= limit {
          writer.emit(time, .completed)
        } else {
          writer.emit(time, event)
        }
      }
    case .skipWhile(let limit):
      var skipping = true
      return try pipe(input) { time, event, writer in
        if case .next(let value) = event {
          if skipping, value < limit { return }
          skipping = false
        }
        writer.emit(time, event)
      }
    case .elementAt(let index):
      var seen = 0
      return try pipe(input) { time, event, writer in
        switch event {
        case .next(let value):
          if seen == index {
            writer.emit(time, .next(value))
            writer.emit(time, .completed)
          }
          seen += 1
        case .completed: writer.emit(time, .error(ErrorCode.argumentOutOfRange))
        case .error: writer.emit(time, event)
        }
      }
    case .ifEmptyDefault(let value):
      var empty = true
      return try pipe(input) { time, event, writer in
        if case .next = event { empty = false }
        if event == .completed, empty { writer.emit(time, .next(value)) }
        writer.emit(time, event)
      }
    case .ifEmptySwitch(let other):
      var empty = true
      return try pipe(input) { [self] time, event, writer in
        if case .next = event { empty = false }
        if event == .completed, empty {
          writer.closeAll(at: time)
          writer.append(contentsOf: try log(other, at: time))
        } else {
          writer.emit(time, event)
        }
      }
    case .enumerated:
      var index = 0
      return try pipe(input) { time, event, writer in
        writer.emit(
          time,
          event.mapNext {
            defer { index += 1 }
            return Encode.enumerated(index, $0)
          })
      }
    case .toArray:
      var buffer: [Int] = []
      return try pipe(input) { time, event, writer in
        switch event {
        case .next(let value): buffer.append(value)
        case .completed:
          writer.emit(time, .next(Encode.array(buffer)))
          writer.emit(time, .completed)
        case .error: writer.emit(time, event)
        }
      }
    case .materialize:
      return try pipe(input) { time, event, writer in
        writer.emit(time, .next(Encode.materialized(event)))
        if event.isTerminal { writer.emit(time, .completed) }
      }
    case .catchAndReturn(let value):
      return try pipe(input) { time, event, writer in
        if case .error = event {
          writer.emit(time, .next(value))
          writer.emit(time, .completed)
        } else {
          writer.emit(time, event)
        }
      }
    case .catchSwitch(let other):
      return try pipe(input) { [self] time, event, writer in
        if case .error = event {
          writer.closeAll(at: time)
          writer.append(contentsOf: try log(other, at: time))
        } else {
          writer.emit(time, event)
        }
      }
    case .debounce(let dueTime):
      var op = ModelDebounce(dueTime: dueTime)
      return try drive(&op, input)
    case .throttle(let dueTime, let latest):
      var op = ModelThrottle(dueTime: dueTime, latest: latest)
      return try drive(&op, input)
    case .delay(let dueTime):
      var op = ModelDelay(dueTime: dueTime)
      return try drive(&op, input)
    case .timeout(let dueTime):
      var op = ModelTimeout(dueTime: dueTime, due: start + dueTime, other: nil)
      return try drive(&op, input)
    case .timeoutSwitch(let dueTime, let other):
      var op = ModelTimeout(
        dueTime: dueTime, due: start + dueTime, other: { [self] in try log(other, at: $0) })
      return try drive(&op, input)
    case .buffer(let span, let count):
      var op = ModelBuffer(span: span, count: count, due: start + span)
      return try drive(&op, input)
    case .startWith, .retry, .delaySubscription:
      preconditionFailure("handled by unaryLog")
    }
  }
}
