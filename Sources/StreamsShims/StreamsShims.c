// The atomics are `static inline` in the header; this translation unit defines the globals.
#include "StreamsShims.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if !defined(__APPLE__)
#include <sys/syscall.h>
#endif

intptr_t streams_tracing_installed = 0;

_Thread_local void *streams_trace_thread_state = 0;
_Thread_local intptr_t streams_trace_depth = 0;

_Thread_local void *streams_trampoline = 0;

intptr_t streams_trace_delivery_ids = 0;

intptr_t streams_claim_ranks = 0;
intptr_t streams_claim_operator_ranks = 0;
_Thread_local intptr_t streams_claim_rank = 0;
_Thread_local intptr_t streams_turn_spent = 0;
_Thread_local intptr_t streams_claims_taken[16];
_Thread_local intptr_t streams_claims_taken_count = 0;
_Thread_local void *streams_turn_waiter = 0;

struct streams_parker {
  pthread_mutex_t mutex;
  pthread_cond_t condition;
  intptr_t state;
};

streams_parker *streams_parker_create(void) {
  streams_parker *parker = malloc(sizeof(streams_parker));
  if (parker == 0) abort();
  if (pthread_mutex_init(&parker->mutex, 0) != 0) abort();
  pthread_condattr_t attributes;
  pthread_condattr_init(&attributes);
#if !defined(__APPLE__)
  pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
#endif
  if (pthread_cond_init(&parker->condition, &attributes) != 0) abort();
  pthread_condattr_destroy(&attributes);
  parker->state = 0;
  return parker;
}

void streams_parker_destroy(streams_parker *parker) {
  pthread_cond_destroy(&parker->condition);
  pthread_mutex_destroy(&parker->mutex);
  free(parker);
}

intptr_t streams_parker_wait(streams_parker *parker, int64_t nanoseconds) {
  struct timespec deadline;
#if defined(__APPLE__)
  clock_gettime(CLOCK_REALTIME, &deadline);
#else
  clock_gettime(CLOCK_MONOTONIC, &deadline);
#endif
  int64_t total = (int64_t)deadline.tv_nsec + nanoseconds;
  deadline.tv_sec += (time_t)(total / 1000000000);
  deadline.tv_nsec = (long)(total % 1000000000);
  pthread_mutex_lock(&parker->mutex);
  while (parker->state == 0) {
    if (pthread_cond_timedwait(&parker->condition, &parker->mutex, &deadline) == ETIMEDOUT &&
        parker->state == 0) {
      parker->state = 3;
    }
  }
  intptr_t state = parker->state;
  pthread_mutex_unlock(&parker->mutex);
  return state;
}

bool streams_parker_post(streams_parker *parker, intptr_t state) {
  pthread_mutex_lock(&parker->mutex);
  bool posted = parker->state == 0;
  if (posted) {
    parker->state = state;
    pthread_cond_signal(&parker->condition);
  }
  pthread_mutex_unlock(&parker->mutex);
  return posted;
}

// The write end of the pipe watching each signal, or -1.
static int streams_trace_signal_fds[65] = {[0 ... 64] = -1};

static void streams_trace_on_signal(int signal) {
  int saved = errno;
  int fd = __atomic_load_n(&streams_trace_signal_fds[signal], __ATOMIC_ACQUIRE);
  if (fd >= 0) {
    unsigned char byte = (unsigned char)signal;
    (void)write(fd, &byte, 1);
  }
  errno = saved;
}

int streams_trace_watch_signal(int signal, int fd) {
  if (signal <= 0 || signal > 64) return -1;
  int previous = __atomic_exchange_n(&streams_trace_signal_fds[signal], fd, __ATOMIC_ACQ_REL);
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = fd >= 0 ? streams_trace_on_signal : SIG_DFL;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  sigaction(signal, &action, 0);
  return previous;
}

bool streams_is_main_thread(void) {
#if defined(__APPLE__)
  return pthread_main_np() != 0;
#else
  return syscall(SYS_gettid) == getpid();
#endif
}
