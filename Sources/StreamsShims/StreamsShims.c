// The atomics are `static inline` in the header; this translation unit defines the globals.
#include "StreamsShims.h"

intptr_t streams_tracing_installed = 0;

_Thread_local void *streams_trace_thread_state = 0;
