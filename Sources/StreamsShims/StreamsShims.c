// The atomics are `static inline` in the header; this translation unit defines the globals.
#include "StreamsShims.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#if defined(__APPLE__)
#include <pthread.h>
#else
#include <sys/syscall.h>
#endif

intptr_t streams_tracing_installed = 0;

_Thread_local void *streams_trace_thread_state = 0;
_Thread_local intptr_t streams_trace_depth = 0;

_Thread_local void *streams_trampoline = 0;

intptr_t streams_trace_delivery_ids = 0;

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
