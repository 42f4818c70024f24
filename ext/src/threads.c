/* Several threads on one nim-sequence: start them, run one task on each, join them.

   POSIX threads where the compiler has GCC's atomic builtins (gcc, clang: Linux,
   macOS, MinGW); elsewhere (MSVC) one thread runs the task alone, with the same
   results.  The task learns how many threads run it, so it can share the heaps
   out; a thread that cannot be started only makes that number smaller.  Threads
   wait for each other by spinning, so a crew is never larger than the cores the
   process may run on (kayles_cores): one more and a wait can last a time slice. */

#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE   /* sched_getaffinity */
#endif
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif

#include "kernels.h"

#if KAYLES_THREADS
#include <pthread.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>

int kayles_cores(void) {
#if defined(__linux__)
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return CPU_COUNT(&set);
#endif
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    return online > 0 ? (int) online : 1;
}

typedef struct {
    kayles_task task;
    void *context;
    int worker;
    int *workers;   /* 0 until every thread that could start has started */
} kayles_start;

static void *kayles_thread(void *arg) {
    kayles_start *start = arg;
    int workers;
    int spins = 0;
    while (!(workers = __atomic_load_n(start->workers, __ATOMIC_ACQUIRE)))
        kayles_backoff(&spins);
    start->task(start->context, start->worker, workers);
    return NULL;
}

void kayles_backoff(int *spins) {
    if (++*spins < 2048) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
    } else if (*spins < 2048 + 64) {
        sched_yield();
    } else {   /* the thread waited for is not running (more threads than cores): let it */
        struct timespec pause = {0, 20000};
        nanosleep(&pause, NULL);
    }
}

int kayles_run_workers(int n, kayles_task task, void *context) {
    pthread_t threads[KAYLES_MAX_THREADS];
    kayles_start starts[KAYLES_MAX_THREADS];
    int workers = 0, started = 1, k;
    if (n > KAYLES_MAX_THREADS)
        n = KAYLES_MAX_THREADS;
    for (; started < n; started++) {
        starts[started] = (kayles_start){task, context, started, &workers};
        if (pthread_create(&threads[started], NULL, kayles_thread, &starts[started]))
            break;
    }
    __atomic_store_n(&workers, started, __ATOMIC_RELEASE);
    task(context, 0, started);
    for (k = 1; k < started; k++)
        pthread_join(threads[k], NULL);
    return started;
}

#else

int kayles_cores(void) {
    return 1;
}

void kayles_backoff(int *spins) {
    (void) spins;
}

int kayles_run_workers(int n, kayles_task task, void *context) {
    (void) n;
    task(context, 0, 1);
    return 1;
}

#endif
