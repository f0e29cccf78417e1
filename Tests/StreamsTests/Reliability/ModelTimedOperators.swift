// The model's time-based single-source operators, each written from RxSwift's documented
// behaviour.

/// `debounce`: an element is sent `dueTime` after it arrived unless another arrived meanwhile;
/// completion sends the pending element at once, then completes; an error drops it.
struct ModelDebounce: TimedModelOperator {
  let dueTime: Int
  var pending: (value: Int, due: Int)?
  var due: Int? { pending?.due }

  mutating func fire(_ writer: inout LogWriter) throws {
    guard let pending else { return }
    self.pending = nil
    writer.emit(pending.due, .next(pending.value))
  }

  mutating func on(_ time: Int, _ event: ModelEvent, _ writer: inout LogWriter) throws {
    switch event {
    case .next(let value): pending = (value, time + dueTime)
    case .completed:
      if let pending { writer.emit(time, .next(pending.value)) }
      pending = nil
      writer.emit(time, .completed)
    case .error:
      pending = nil
      writer.emit(time, event)
    }
  }
}

/// `throttle`: an element at least `dueTime` after the last one sent goes at once; with
/// `latest`, the last element of a window is sent when the window ends, and a completion that
/// arrives while one waits is sent with it (the source is disposed when it completes).
struct ModelThrottle: TimedModelOperator {
  let dueTime: Int
  let latest: Bool
  var lastSent: Int?
  var unsent: Int?
  var timer: Int?
  var completed = false
  var due: Int? { timer }

  mutating func fire(_ writer: inout LogWriter) throws {
    guard let now = timer else { return }
    timer = nil
    if let unsent {
      self.unsent = nil
      writer.emit(now, .next(unsent))
      lastSent = now
    }
    if completed { writer.emit(now, .completed) }
  }

  mutating func on(_ time: Int, _ event: ModelEvent, _ writer: inout LogWriter) throws {
    switch event {
    case .next(let value):
      let wait = lastSent.map { dueTime - (time - $0) } ?? 0
      if wait <= 0 {
        unsent = nil
        writer.emit(time, event)
        lastSent = time
        return
      }
      guard latest else { return }
      let inFlight = unsent != nil
      unsent = value
      if !inFlight { timer = time + wait }
    case .completed:
      if unsent != nil {
        completed = true
        writer.closeAll(at: time)
      } else {
        writer.emit(time, .completed)
      }
    case .error:
      unsent = nil
      timer = nil
      writer.emit(time, event)
    }
  }
}

/// `delay`: elements and the completion are sent `dueTime` after they arrived, one per timer
/// firing (an event whose time has already come goes one tick after the previous one, as the
/// scheduler runs "now" one tick later); an error goes at once. The source is disposed when it
/// terminates.
struct ModelDelay: TimedModelOperator {
  let dueTime: Int
  var queue: [(time: Int, event: ModelEvent)] = []
  var timer: Int?
  var due: Int? { timer }

  mutating func fire(_ writer: inout LogWriter) throws {
    guard let now = timer, !queue.isEmpty else { return }
    let entry = queue.removeFirst()
    writer.emit(now, entry.event)
    if let next = queue.first {
      let due = next.time + dueTime
      timer = due > now ? due : now + 1
    } else {
      timer = nil
    }
  }

  mutating func on(_ time: Int, _ event: ModelEvent, _ writer: inout LogWriter) throws {
    if case .error = event {
      queue.removeAll()
      timer = nil
      writer.emit(time, event)
      return
    }
    if event == .completed { writer.closeAll(at: time) }
    queue.append((time, event))
    if timer == nil { timer = time + dueTime }
  }
}

/// `timeout`: fails with `RxError.timeout` (or switches to `other`) when no element arrives within
/// `dueTime` of the subscription or of the previous element.
struct ModelTimeout: TimedModelOperator {
  let dueTime: Int
  var due: Int?
  let other: ((Int) throws -> [LogItem])?
  var detached = false

  mutating func fire(_ writer: inout LogWriter) throws {
    guard let now = due else { return }
    due = nil
    if let other {
      writer.closeAll(at: now)
      writer.append(contentsOf: try other(now))
      detached = true
    } else {
      writer.emit(now, .error(ErrorCode.timeout))
    }
  }

  mutating func on(_ time: Int, _ event: ModelEvent, _ writer: inout LogWriter) throws {
    writer.emit(time, event)
    if case .next = event { due = time + dueTime }
  }
}

/// `buffer(timeSpan:count:scheduler:)` (RxSwift's `BufferTimeCount`): the timer starts with the
/// subscription; a full buffer, or the timer, sends the buffer (an empty one too) and starts the
/// next window with a new timer; completion sends what is buffered, then completes; an error
/// drops it.
struct ModelBuffer: TimedModelOperator {
  let span: Int
  let count: Int
  var buffer: [Int] = []
  var due: Int?

  init(span: Int, count: Int, due: Int) {
    self.span = span
    self.count = count
    self.due = due
  }

  mutating func fire(_ writer: inout LogWriter) throws {
    guard let now = due else { return }
    writer.emit(now, .next(Encode.array(buffer)))
    buffer = []
    due = now + span
  }

  mutating func on(_ time: Int, _ event: ModelEvent, _ writer: inout LogWriter) throws {
    switch event {
    case .next(let value):
      buffer.append(value)
      guard buffer.count == count else { return }
      writer.emit(time, .next(Encode.array(buffer)))
      buffer = []
      due = time + span
    case .error: writer.emit(time, event)
    case .completed:
      writer.emit(time, .next(Encode.array(buffer)))
      writer.emit(time, .completed)
    }
  }
}
