#ifndef STREAMS_FUZZ_SHIMS_H
#define STREAMS_FUZZ_SHIMS_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver (LLVM 12 and later), for an executable whose `main` is its own: SwiftPM
/// links a Swift executable's entry point as `main`, so libFuzzer's `main` is never linked in.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
