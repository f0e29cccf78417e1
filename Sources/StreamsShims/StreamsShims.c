// The atomics are `static inline` in the header; a C target needs one translation unit.
#include "StreamsShims.h"
