import StreamsTest

/// Smaller pipelines than `pipeline`, for shrinking a failure: a subtree replaced by one of its
/// children, an operator dropped, an input of a multi-source operator dropped, a consumer or a
/// shared sequence removed, a source event dropped, the disposal moved to the default.
func shrinkCandidates(_ pipeline: Pipeline) -> [Pipeline] {
  var out: [Pipeline] = []
  if pipeline.consumers.count > 1 {
    for index in pipeline.consumers.indices {
      var candidate = pipeline
      candidate.consumers.remove(at: index)
      out.append(candidate)
    }
  }
  for (index, consumer) in pipeline.consumers.enumerated() {
    for node in nodeVariants(consumer.root) {
      var candidate = pipeline
      candidate.consumers[index].root = node
      out.append(candidate)
    }
    if let unshared = unshare(consumer.root, pipeline.shared), pipeline.consumers.count == 1 {
      var candidate = pipeline
      candidate.consumers[index].root = unshared
      candidate.shared = []
      out.append(candidate)
    }
  }
  for (index, spec) in pipeline.shared.enumerated() {
    for node in nodeVariants(spec.upstream) {
      var candidate = pipeline
      candidate.shared[index].upstream = node
      out.append(candidate)
    }
  }
  for (index, source) in pipeline.sources.enumerated() {
    for eventIndex in source.events.indices {
      var candidate = pipeline
      candidate.sources[index].events.remove(at: eventIndex)
      out.append(candidate)
    }
  }
  for (index, consumer) in pipeline.consumers.enumerated() where consumer.disposed != 1000 {
    var candidate = pipeline
    candidate.consumers[index].disposed = 1000
    out.append(candidate)
  }
  return out
}

/// `node` with its shared sequences replaced by their definitions (no sharing left).
private func unshare(_ node: Node, _ shared: [SharedSpec]) -> Node? {
  guard !shared.isEmpty else { return nil }
  switch node {
  case .source: return node
  case .shared(let index): return shared[index].upstream
  case .unary(let op, let upstream): return unshare(upstream, shared).map { .unary(op, $0) }
  case .multi(let op, let children):
    return .multi(op, children.map { unshare($0, shared) ?? $0 })
  case .higher(let op, let outer, let inners):
    return unshare(outer, shared).map { .higher(op, $0, inners: inners) }
  }
}

private func nodeVariants(_ node: Node) -> [Node] {
  switch node {
  case .source, .shared: return []
  case .unary(let op, let upstream):
    var out = [upstream]
    out += nodeVariants(upstream).map { .unary(op, $0) }
    if let other = op.other {
      out += nodeVariants(other).map { .unary(op.with(other: $0), upstream) }
    }
    return out
  case .multi(let op, let children):
    var out = children
    if op.isVariadic, children.count > 2 {
      for index in children.indices {
        var fewer = children
        fewer.remove(at: index)
        out.append(.multi(op, fewer))
      }
    }
    for index in children.indices {
      for variant in nodeVariants(children[index]) {
        var changed = children
        changed[index] = variant
        out.append(.multi(op, changed))
      }
    }
    return out
  case .higher(let op, let outer, let inners):
    var out = [outer] + inners
    if inners.count > 1 {
      for index in inners.indices {
        var fewer = inners
        fewer.remove(at: index)
        out.append(.higher(op, outer, inners: fewer))
      }
    }
    out += nodeVariants(outer).map { .higher(op, $0, inners: inners) }
    for index in inners.indices {
      for variant in nodeVariants(inners[index]) {
        var changed = inners
        changed[index] = variant
        out.append(.higher(op, outer, inners: changed))
      }
    }
    return out
  }
}
