#ifndef STREAMS_SHIMS_H
#define STREAMS_SHIMS_H

#include <stdint.h>
#include <stdbool.h>

#pragma clang assume_nonnull begin

/// Sequentially consistent atomic operations on a word that Swift owns (allocated memory, never a
/// Swift stored property). They live in a .c file, not in the header, so that ThreadSanitizer
/// instruments them when the package is built with `--sanitize=thread`.
intptr_t streams_atomic_load(const intptr_t *address);
void streams_atomic_store(intptr_t *address, intptr_t value);
intptr_t streams_atomic_exchange(intptr_t *address, intptr_t value);
intptr_t streams_atomic_fetch_add(intptr_t *address, intptr_t delta);
intptr_t streams_atomic_fetch_or(intptr_t *address, intptr_t bits);
bool streams_atomic_compare_exchange(intptr_t *address, intptr_t expected, intptr_t desired);

#pragma clang assume_nonnull end

#endif
