#include "StreamsShims.h"

intptr_t streams_atomic_load(const intptr_t *address) {
  return __atomic_load_n(address, __ATOMIC_SEQ_CST);
}

void streams_atomic_store(intptr_t *address, intptr_t value) {
  __atomic_store_n(address, value, __ATOMIC_SEQ_CST);
}

intptr_t streams_atomic_exchange(intptr_t *address, intptr_t value) {
  return __atomic_exchange_n(address, value, __ATOMIC_SEQ_CST);
}

intptr_t streams_atomic_fetch_add(intptr_t *address, intptr_t delta) {
  return __atomic_fetch_add(address, delta, __ATOMIC_SEQ_CST);
}

intptr_t streams_atomic_fetch_or(intptr_t *address, intptr_t bits) {
  return __atomic_fetch_or(address, bits, __ATOMIC_SEQ_CST);
}

bool streams_atomic_compare_exchange(intptr_t *address, intptr_t expected, intptr_t desired) {
  return __atomic_compare_exchange_n(address, &expected, desired, false, __ATOMIC_SEQ_CST,
                                     __ATOMIC_SEQ_CST);
}
