import Dispatch
import Foundation
import Streams
import StreamsState
import StreamsTrace
import Synchronization
import Testing

/// Sender `sender`'s element number `sequence`.
func stressTag(_ sender: Int, _ sequence: Int) -> Int { sender * 1_000_000 + sequence }

/// What breaks per-sender order in `elements` (each made by ``stressTag(_:_:)``; negative
/// elements, a subject's or a cell's initial value, are skipped): each sender's sequence numbers
/// must increase, with no duplicate; with `complete`, each of the `senders` must have been seen
/// sending exactly `0..<complete`, none missing.
func senderOrderProblems(_ elements: [Int], senders: Int, complete: Int? = nil)
  -> [String]
{
  var last = [Int](repeating: -1, count: senders)
  var problems: [String] = []
  for element in elements where element >= 0 {
    let sender = element / 1_000_000
    let sequence = element % 1_000_000
    guard sender < senders else {
      problems.append("unexpected element \(element)")
      continue
    }
    if sequence <= last[sender] {
      problems.append("sender \(sender): \(sequence) after \(last[sender])")
    } else if complete != nil, sequence != last[sender] + 1 {
      problems.append("sender \(sender): \(sequence - last[sender] - 1) missing before \(sequence)")
    }
    last[sender] = max(last[sender], sequence)
  }
  if let complete {
    for sender in 0..<senders where last[sender] != complete - 1 {
      problems.append("sender \(sender): last \(last[sender]), expected \(complete - 1)")
    }
  }
  return Array(problems.prefix(5))
}

/// The grammar and serial delivery as a `ContractRecorder` saw them.
func contractProblems<Element>(_ recorder: ContractRecorder<Element>) -> [String] {
  recorder.violations + (recorder.overlapCount == 0 ? [] : ["\(recorder.overlapCount) overlaps"])
}
