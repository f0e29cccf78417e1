// The tools side of StreamsTrace (the dump reader, the queries, the exports, the commands) works
// on what the recording side makes; `import StreamsTrace` brings both.
@_exported import StreamsTraceRecording
