#ifndef STREAMS_SHIMS_H
#define STREAMS_SHIMS_H

#include <stdint.h>
#include <stdbool.h>

#pragma clang assume_nonnull begin

// Sequentially consistent atomic operations on a word that Swift owns (allocated memory or the
// first stored property of a class, never a Swift variable that can move).
//
// They are `static inline` so that Swift inlines them at every use: a load is one `mov` on x86-64
// and arm64, where an out-of-line call costs several times that on the per-event paths. The
// importer emits their bodies into each Swift module that calls them, and ThreadSanitizer
// instruments atomic instructions in every function of a sanitized module (even functions not
// themselves marked for sanitizing), so `--sanitize=thread` still sees every one of them as
// synchronization.

static inline __attribute__((always_inline)) intptr_t streams_atomic_load(const intptr_t *address) {
  return __atomic_load_n(address, __ATOMIC_SEQ_CST);
}

static inline __attribute__((always_inline)) void streams_atomic_store(intptr_t *address,
                                                                      intptr_t value) {
  __atomic_store_n(address, value, __ATOMIC_SEQ_CST);
}

static inline __attribute__((always_inline)) intptr_t streams_atomic_exchange(intptr_t *address,
                                                                             intptr_t value) {
  return __atomic_exchange_n(address, value, __ATOMIC_SEQ_CST);
}

static inline __attribute__((always_inline)) intptr_t streams_atomic_fetch_add(intptr_t *address,
                                                                              intptr_t delta) {
  return __atomic_fetch_add(address, delta, __ATOMIC_SEQ_CST);
}

static inline __attribute__((always_inline)) intptr_t streams_atomic_fetch_or(intptr_t *address,
                                                                             intptr_t bits) {
  return __atomic_fetch_or(address, bits, __ATOMIC_SEQ_CST);
}

static inline __attribute__((always_inline)) bool streams_atomic_compare_exchange(
    intptr_t *address, intptr_t expected, intptr_t desired) {
  return __atomic_compare_exchange_n(address, &expected, desired, false, __ATOMIC_SEQ_CST,
                                     __ATOMIC_SEQ_CST);
}

// Relaxed and acquire/release forms, for words with one writer (a counter only the delivering
// thread bumps, read by whoever takes a snapshot) and for publishing slots of a single-producer
// queue. On x86-64 each is one plain `mov`.

static inline __attribute__((always_inline)) intptr_t streams_atomic_load_relaxed(
    const intptr_t *address) {
  return __atomic_load_n(address, __ATOMIC_RELAXED);
}

static inline __attribute__((always_inline)) void streams_atomic_store_relaxed(intptr_t *address,
                                                                              intptr_t value) {
  __atomic_store_n(address, value, __ATOMIC_RELAXED);
}

static inline __attribute__((always_inline)) intptr_t streams_atomic_load_acquire(
    const intptr_t *address) {
  return __atomic_load_n(address, __ATOMIC_ACQUIRE);
}

static inline __attribute__((always_inline)) void streams_atomic_store_release(intptr_t *address,
                                                                              intptr_t value) {
  __atomic_store_n(address, value, __ATOMIC_RELEASE);
}

// An acquire fence: loads before it are ordered before loads and stores after it (the reader of a
// sequence lock, between reading the guarded words and reading the sequence word again).
static inline __attribute__((always_inline)) void streams_atomic_fence_acquire(void) {
  __atomic_thread_fence(__ATOMIC_ACQUIRE);
}

// The generation of the installed tracer (`Tracing.install`), 0 when none is. A C global rather
// than a Swift static, so that the check every subscription makes is one load, with no
// lazy-initialization call in front of it.
extern intptr_t streams_tracing_installed;

static inline __attribute__((always_inline)) intptr_t streams_tracing_installed_load(void) {
  return __atomic_load_n(&streams_tracing_installed, __ATOMIC_SEQ_CST);
}

static inline __attribute__((always_inline)) void streams_tracing_installed_store(intptr_t value) {
  __atomic_store_n(&streams_tracing_installed, value, __ATOMIC_SEQ_CST);
}

// The calling thread's trampoline (Streams' CurrentThreadScheduler queue, retained by a pthread
// key whose destructor releases it and clears this), in a C thread-local variable: reading it is
// one instruction, where `pthread_getspecific` is a call (and the key a lazily made global).
extern _Thread_local void *_Nullable streams_trampoline;

static inline __attribute__((always_inline)) void *_Nullable streams_trampoline_get(void) {
  return streams_trampoline;
}

static inline __attribute__((always_inline)) void streams_trampoline_set(
    void *_Nullable trampoline) {
  streams_trampoline = trampoline;
}

// Delivery ids for StreamsTrace: process-wide, increasing, never 0.
extern intptr_t streams_trace_delivery_ids;

static inline __attribute__((always_inline)) intptr_t streams_trace_next_delivery_id(void) {
  return __atomic_add_fetch(&streams_trace_delivery_ids, 1, __ATOMIC_RELAXED);
}

// The calling thread's StreamsTrace state (a pointer StreamsTrace owns), in a C thread-local
// variable: reading it is one instruction, where `pthread_getspecific` is a call. StreamsTrace
// also registers the pointer under a pthread key, whose destructor frees it when the thread
// exits.
extern _Thread_local void *_Nullable streams_trace_thread_state;

static inline __attribute__((always_inline)) void *_Nullable streams_trace_thread_state_get(void) {
  return streams_trace_thread_state;
}

static inline __attribute__((always_inline)) void streams_trace_thread_state_set(
    void *_Nullable state) {
  streams_trace_thread_state = state;
}

// How many frames the calling thread's StreamsTrace stack holds (the frames themselves are in
// the state above), in a C thread-local variable of its own: a traced delivery ends by popping
// its frame, which the core does inline (`streams_trace_pop`) rather than through a call into
// StreamsTrace. Popping a frame that was not pushed traps.
extern _Thread_local intptr_t streams_trace_depth;

static inline __attribute__((always_inline)) intptr_t streams_trace_depth_get(void) {
  return streams_trace_depth;
}

static inline __attribute__((always_inline)) void streams_trace_depth_set(intptr_t depth) {
  streams_trace_depth = depth;
}

static inline __attribute__((always_inline)) void streams_trace_pop(void) {
  intptr_t depth = streams_trace_depth;
  if (depth <= 0) __builtin_trap();
  streams_trace_depth = depth - 1;
}

// Turn-taking of Streams' serializers (a subject's delivery claim, an operator's outbox): see
// `DeliveryTurns` in Sources/Streams/Core. Every serializer gets a rank, increasing with its
// creation; a thread may wait for its turn at a serializer only when the serializer's rank is
// above every rank the thread holds a claim of (`streams_claim_rank`), which orders the waits and
// so rules out a cycle of them (a deadlock).
extern intptr_t streams_claim_ranks;
extern intptr_t streams_claim_operator_ranks;

// A new subject's rank: process-wide, increasing, never 0 (0 means "no claim").
static inline __attribute__((always_inline)) intptr_t streams_claim_rank_next(void) {
  return __atomic_add_fetch(&streams_claim_ranks, 1, __ATOMIC_RELAXED);
}

// A new operator's rank (an outbox, a `share` connection): above every subject's, and
// decreasing, because a subscription makes the downstream operator before the upstream ones
// that feed it.
static inline __attribute__((always_inline)) intptr_t streams_claim_operator_rank_next(void) {
  return ((intptr_t)1 << 62) - __atomic_add_fetch(&streams_claim_operator_ranks, 1,
                                                  __ATOMIC_RELAXED);
}

// The highest rank of the claims the calling thread holds (0: none). A delivery raises it for its
// duration and puts the previous value back when it ends.
extern _Thread_local intptr_t streams_claim_rank;

// How many queued events the calling thread has delivered, for all the serializers it holds,
// since it took its outermost claim: the turns of one call share one budget.
extern _Thread_local intptr_t streams_turn_spent;

static inline __attribute__((always_inline)) intptr_t streams_turn_spent_get(void) {
  return streams_turn_spent;
}

static inline __attribute__((always_inline)) void streams_turn_spent_set(intptr_t count) {
  streams_turn_spent = count;
}

static inline __attribute__((always_inline)) intptr_t streams_claim_rank_get(void) {
  return streams_claim_rank;
}

static inline __attribute__((always_inline)) void streams_claim_rank_set(intptr_t rank) {
  streams_claim_rank = rank;
}

// The ranks of the outbox claims `send`s took on the calling thread whose drains have not begun
// delivering yet, innermost last (a claim's drain may run user code, a disposal, that takes
// another claim before the drain begins), and the waiter a `send` registered for its drain to
// wait on (a retained `TurnWaiter`, or null): how an outbox's state, behind its owner's lock,
// tells the owner's drain loop, after the lock, what it decided. Past 16 pending claims the
// ranks are not recorded (0 is read back: the thread then waits less, never wrongly more).
extern _Thread_local intptr_t streams_claims_taken[16];
extern _Thread_local intptr_t streams_claims_taken_count;
extern _Thread_local void *_Nullable streams_turn_waiter;

static inline __attribute__((always_inline)) void streams_claim_taken_push(intptr_t rank) {
  intptr_t count = streams_claims_taken_count;
  if (count < 16) streams_claims_taken[count] = rank;
  streams_claims_taken_count = count + 1;
}

static inline __attribute__((always_inline)) intptr_t streams_claim_taken_pop(void) {
  intptr_t count = streams_claims_taken_count;
  if (count == 0) return 0;
  streams_claims_taken_count = count - 1;
  return count <= 16 ? streams_claims_taken[count - 1] : 0;
}

// The highest of those ranks (0 when none is recorded).
static inline __attribute__((always_inline)) intptr_t streams_claim_taken_max(void) {
  intptr_t count = streams_claims_taken_count;
  if (count > 16) count = 16;
  intptr_t highest = 0;
  for (intptr_t index = 0; index < count; index++) {
    if (streams_claims_taken[index] > highest) highest = streams_claims_taken[index];
  }
  return highest;
}

static inline __attribute__((always_inline)) void *_Nullable streams_turn_waiter_get(void) {
  return streams_turn_waiter;
}

static inline __attribute__((always_inline)) void streams_turn_waiter_set(void *_Nullable waiter) {
  streams_turn_waiter = waiter;
}

// A thread parked until another posts a state to it, or until a timeout: a pthread mutex and
// condition variable (ThreadSanitizer sees both). `streams_parker_wait` returns the posted state
// (1 or 2), or 3 when `nanoseconds` passed first, after which the parker is abandoned. A parker
// is posted to at most once: `streams_parker_post` returns false (changing nothing) when the
// parker was abandoned or posted to already.
typedef struct streams_parker streams_parker;
streams_parker *streams_parker_create(void);
void streams_parker_destroy(streams_parker *parker);
intptr_t streams_parker_wait(streams_parker *parker, int64_t nanoseconds);
bool streams_parker_post(streams_parker *parker, intptr_t state);

// Makes `signal` write one byte (the signal number) to the file descriptor `fd` each time it
// arrives, from an async-signal-safe handler; `fd` -1 stops the writes and puts back the
// default action. Returns the descriptor that was watching before (or -1), so that its owner
// can close it. StreamsTrace reads the other end of a pipe on a thread of its own, where it is
// free to take locks and write a dump.
int streams_trace_watch_signal(int signal, int fd);

// Whether the calling thread is the process's main thread (on Linux, the thread whose id is the
// process id). The main actor's check counts the main thread as the main actor even where the
// main queue is not current (inside another queue's `sync`).
bool streams_is_main_thread(void);

#pragma clang assume_nonnull end

#endif
