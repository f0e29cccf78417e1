// The atomics are `static inline` in the header; this translation unit defines the one global.
#include "StreamsShims.h"

intptr_t streams_tracing_installed = 0;
