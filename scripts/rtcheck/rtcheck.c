/*
 * rtcheck: an LD_PRELOAD library that proves a JACK client's process callback stays
 * realtime-safe.
 *
 * It wraps jack_set_process_callback so that JACK calls a trampoline of ours, which marks
 * the calling thread as "inside the process callback" for exactly the duration of the
 * client's callback. The functions a realtime callback must never call (the allocator,
 * mutexes and condition variables, sleeps, file and socket I/O, raw syscalls such as
 * futex) are interposed here: each counts a violation when called with the mark set, keeps
 * the call stacks of the first few, then forwards to the real function. JACK's own code
 * around the callback (its wait for the next cycle, its socket traffic) runs outside the
 * mark, so only the client's code is judged.
 *
 * At exit a report goes to $RTCHECK_REPORT ("%p" in it becomes the pid), or to stderr,
 * from processes that registered a process callback:
 *   cycles N, the callback's mean and maximum time, violations per function, and the call
 *   sites of the first violations, as module+offset (for addr2line) and nearest symbol.
 *
 * Build: gcc -shared -fPIC -O2 -o rtcheck.so rtcheck.c -ldl
 *
 * Built with -DRTCHECK_RTSAN instead, and linked against LLVM's RealtimeSanitizer runtime,
 * it interposes nothing itself: the trampoline enters rtsan's realtime scope around the
 * callback and rtsan's own interceptors do the judging (they print a stack and abort).
 */
#define _GNU_SOURCE
#undef _FORTIFY_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

/* JACK's callback type, spelled out so that this file needs no JACK headers. */
typedef int (*process_callback)(uint32_t nframes, void *arg);

/* One wrapped jack_set_process_callback call. A fixed table: the trampoline must not
 * allocate, and a process has very few clients. */
struct wrapped {
    process_callback callback;
    void *arg;
};
#define MAX_WRAPPED 64
static struct wrapped wrapped[MAX_WRAPPED];
static int wrapped_count;

static uint64_t cycles, callback_ns_total, callback_ns_max;
/* Callbacks we could not wrap (table full, or jack_set_process_thread): the report says
 * so, because their code ran unobserved. */
static uint64_t unwatched;

static inline uint64_t now_ns(void)
{
    /* vDSO: no syscall, no lock. */
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* Initial-exec TLS: reading it is one instruction off %fs, never a __tls_get_addr call
 * (which could allocate). A preloaded library always gets static TLS. */
static __thread int in_callback __attribute__((tls_model("initial-exec")));

#ifdef RTCHECK_RTSAN
void __rtsan_realtime_enter(void);
void __rtsan_realtime_exit(void);
void __rtsan_ensure_initialized(void);
#define ENTER_REALTIME() __rtsan_realtime_enter()
#define EXIT_REALTIME() __rtsan_realtime_exit()
#else
#define ENTER_REALTIME() ((void)0)
#define EXIT_REALTIME() ((void)0)
#endif

/* Exported (not static) so that stack reports name it: frames above it are the client's. */
int rtcheck_trampoline(uint32_t nframes, void *arg)
{
    struct wrapped *w = arg;
    uint64_t start = now_ns();
    in_callback = 1;
    ENTER_REALTIME();
    int result = w->callback(nframes, w->arg);
    EXIT_REALTIME();
    in_callback = 0;
    uint64_t spent = now_ns() - start;
    __atomic_add_fetch(&cycles, 1, __ATOMIC_RELAXED);
    __atomic_add_fetch(&callback_ns_total, spent, __ATOMIC_RELAXED);
    uint64_t max = __atomic_load_n(&callback_ns_max, __ATOMIC_RELAXED);
    while (spent > max && !__atomic_compare_exchange_n(&callback_ns_max, &max, spent, 1,
                                                       __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
    return result;
}

/* Resolves the next definition of a symbol (libjack's or libc's). dlsym may itself call
 * calloc/malloc: those land in our allocator wrappers, which forward to glibc's
 * __libc_* entry points and so never need dlsym: no bootstrap loop. */
#define REAL(name)                                                                      \
    ({                                                                                  \
        static __typeof__(&name) real_;                                                 \
        __typeof__(&name) f_ = __atomic_load_n(&real_, __ATOMIC_ACQUIRE);               \
        if (!f_) {                                                                      \
            f_ = (__typeof__(&name))dlsym(RTLD_NEXT, #name);                            \
            __atomic_store_n(&real_, f_, __ATOMIC_RELEASE);                             \
        }                                                                               \
        f_;                                                                             \
    })

int jack_set_process_callback(void *client, process_callback callback, void *arg)
{
    int (*real)(void *, process_callback, void *) =
        (int (*)(void *, process_callback, void *))dlsym(RTLD_NEXT, "jack_set_process_callback");
    if (!real) return -1;
    if (!callback) return real(client, callback, arg);
    int slot = __atomic_fetch_add(&wrapped_count, 1, __ATOMIC_RELAXED);
    if (slot >= MAX_WRAPPED) {
        __atomic_add_fetch(&unwatched, 1, __ATOMIC_RELAXED);
        return real(client, callback, arg);
    }
    wrapped[slot].callback = callback;
    wrapped[slot].arg = arg;
    return real(client, rtcheck_trampoline, &wrapped[slot]);
}

/* The other way to run code on JACK's process thread; nobody here uses it, but if a
 * client did, its code would escape the check, so the report must say so. */
int jack_set_process_thread(void *client, void *(*thread)(void *), void *arg)
{
    int (*real)(void *, void *(*)(void *), void *) =
        (int (*)(void *, void *(*)(void *), void *))dlsym(RTLD_NEXT, "jack_set_process_thread");
    if (!real) return -1;
    if (thread) __atomic_add_fetch(&unwatched, 1, __ATOMIC_RELAXED);
    return real(client, thread, arg);
}

#ifndef RTCHECK_RTSAN

/* ---- Violation bookkeeping --------------------------------------------------------- */

#define WATCHED(X)                                                                      \
    X(malloc) X(calloc) X(realloc) X(reallocarray) X(free) X(posix_memalign)            \
    X(aligned_alloc) X(memalign) X(valloc) X(pvalloc) X(mmap) X(mmap64) X(munmap)       \
    X(mremap)                                                                           \
    X(pthread_mutex_lock) X(pthread_mutex_trylock) X(pthread_mutex_timedlock)           \
    X(pthread_mutex_unlock) X(pthread_cond_wait) X(pthread_cond_timedwait)              \
    X(pthread_cond_clockwait) X(pthread_cond_signal) X(pthread_cond_broadcast)          \
    X(pthread_rwlock_rdlock) X(pthread_rwlock_wrlock) X(pthread_rwlock_tryrdlock)       \
    X(pthread_rwlock_trywrlock) X(pthread_rwlock_timedrdlock)                           \
    X(pthread_rwlock_timedwrlock) X(pthread_rwlock_unlock) X(pthread_spin_lock)         \
    X(pthread_once) X(pthread_join) X(sem_wait) X(sem_timedwait) X(sem_post)            \
    X(futex) X(syscall)                                                                 \
    X(nanosleep) X(clock_nanosleep) X(usleep) X(sleep) X(sched_yield) X(pause)          \
    X(read) X(write) X(pread) X(pwrite) X(pread64) X(pwrite64) X(readv) X(writev)       \
    X(open) X(open64) X(openat) X(openat64) X(creat) X(close) X(fsync) X(fdatasync)     \
    X(ioctl) X(send) X(sendto) X(sendmsg) X(recv) X(recvfrom) X(recvmsg) X(poll)        \
    X(ppoll) X(select) X(epoll_wait) X(fopen) X(fclose) X(fread) X(fwrite) X(fflush)    \
    X(fputs) X(puts) X(printf) X(fprintf) X(vfprintf)

#define AS_ENUM(name) F_##name,
enum watched { WATCHED(AS_ENUM) F_COUNT };
#define AS_NAME(name) #name,
static const char *const watched_names[F_COUNT] = { WATCHED(AS_NAME) };

static uint64_t violations[F_COUNT];

/* The first few violations' stacks, captured at the call (on the failure path only). */
#define SITES_PER_FUNCTION 3
#define MAX_SITES 24
#define MAX_DEPTH 24
struct site {
    int function;
    int depth;
    pid_t thread;
    void *frames[MAX_DEPTH];
    int ready;
};
static struct site sites[MAX_SITES];
static int site_count;

/* Set while rtcheck itself runs on a thread (capturing a stack loads and runs the
 * unwinder, which may allocate): those calls are ours, not the client's. */
static __thread int busy __attribute__((tls_model("initial-exec")));

static __attribute__((noinline)) void record(enum watched f)
{
    busy = 1;
    uint64_t nth = __atomic_fetch_add(&violations[f], 1, __ATOMIC_RELAXED);
    if (nth < SITES_PER_FUNCTION) {
        int i = __atomic_fetch_add(&site_count, 1, __ATOMIC_RELAXED);
        if (i < MAX_SITES) {
            sites[i].function = f;
            sites[i].thread = (pid_t)gettid();
            sites[i].depth = backtrace(sites[i].frames, MAX_DEPTH);
            __atomic_store_n(&sites[i].ready, 1, __ATOMIC_RELEASE);
        }
    }
    busy = 0;
}

#define CHECK(name)                                                                     \
    do {                                                                                \
        if (__builtin_expect(in_callback && !busy, 0)) record(F_##name);                 \
    } while (0)

/* ---- Allocator: forwarded to glibc's own entry points (no dlsym needed) ------------- */

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);
extern void *__libc_memalign(size_t, size_t);
extern void *__libc_valloc(size_t);
extern void *__libc_pvalloc(size_t);

void *malloc(size_t size) { CHECK(malloc); return __libc_malloc(size); }
void *calloc(size_t n, size_t size) { CHECK(calloc); return __libc_calloc(n, size); }
void *realloc(void *p, size_t size) { CHECK(realloc); return __libc_realloc(p, size); }
void free(void *p)
{
    /* free(NULL) touches nothing; not worth a report. */
    if (p) CHECK(free);
    __libc_free(p);
}
void *reallocarray(void *p, size_t n, size_t size)
{
    CHECK(reallocarray);
    size_t bytes;
    if (__builtin_mul_overflow(n, size, &bytes)) {
        errno = ENOMEM;
        return NULL;
    }
    return __libc_realloc(p, bytes);
}
int posix_memalign(void **out, size_t alignment, size_t size)
{
    CHECK(posix_memalign);
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
    void *p = __libc_memalign(alignment, size);
    if (!p && size) return ENOMEM;
    *out = p;
    return 0;
}
void *aligned_alloc(size_t alignment, size_t size) { CHECK(aligned_alloc); return __libc_memalign(alignment, size); }
void *memalign(size_t alignment, size_t size) { CHECK(memalign); return __libc_memalign(alignment, size); }
void *valloc(size_t size) { CHECK(valloc); return __libc_valloc(size); }
void *pvalloc(size_t size) { CHECK(pvalloc); return __libc_pvalloc(size); }

void *mmap(void *a, size_t n, int prot, int flags, int fd, off_t off)
{
    CHECK(mmap);
    return REAL(mmap)(a, n, prot, flags, fd, off);
}
void *mmap64(void *a, size_t n, int prot, int flags, int fd, off64_t off)
{
    CHECK(mmap64);
    return REAL(mmap64)(a, n, prot, flags, fd, off);
}
int munmap(void *a, size_t n) { CHECK(munmap); return REAL(munmap)(a, n); }
void *mremap(void *old, size_t oldSize, size_t newSize, int flags, ...)
{
    CHECK(mremap);
    va_list ap;
    va_start(ap, flags);
    void *target = (flags & MREMAP_FIXED) ? va_arg(ap, void *) : NULL;
    va_end(ap);
    return REAL(mremap)(old, oldSize, newSize, flags, target);
}

/* ---- Locks and waits ---------------------------------------------------------------- */

#define FORWARD1(ret, name, T1)                                                         \
    ret name(T1 a) { CHECK(name); return REAL(name)(a); }
#define FORWARD2(ret, name, T1, T2)                                                     \
    ret name(T1 a, T2 b) { CHECK(name); return REAL(name)(a, b); }
#define FORWARD3(ret, name, T1, T2, T3)                                                 \
    ret name(T1 a, T2 b, T3 c) { CHECK(name); return REAL(name)(a, b, c); }
#define FORWARD4(ret, name, T1, T2, T3, T4)                                             \
    ret name(T1 a, T2 b, T3 c, T4 d) { CHECK(name); return REAL(name)(a, b, c, d); }
#define FORWARD5(ret, name, T1, T2, T3, T4, T5)                                         \
    ret name(T1 a, T2 b, T3 c, T4 d, T5 e) { CHECK(name); return REAL(name)(a, b, c, d, e); }
#define FORWARD6(ret, name, T1, T2, T3, T4, T5, T6)                                     \
    ret name(T1 a, T2 b, T3 c, T4 d, T5 e, T6 f)                                        \
    { CHECK(name); return REAL(name)(a, b, c, d, e, f); }

FORWARD1(int, pthread_mutex_lock, pthread_mutex_t *)
FORWARD1(int, pthread_mutex_trylock, pthread_mutex_t *)
FORWARD2(int, pthread_mutex_timedlock, pthread_mutex_t *restrict, const struct timespec *restrict)
FORWARD1(int, pthread_mutex_unlock, pthread_mutex_t *)
FORWARD2(int, pthread_cond_wait, pthread_cond_t *restrict, pthread_mutex_t *restrict)
FORWARD3(int, pthread_cond_timedwait, pthread_cond_t *restrict, pthread_mutex_t *restrict,
         const struct timespec *restrict)
FORWARD4(int, pthread_cond_clockwait, pthread_cond_t *restrict, pthread_mutex_t *restrict, clockid_t,
         const struct timespec *restrict)
FORWARD1(int, pthread_cond_signal, pthread_cond_t *)
FORWARD1(int, pthread_cond_broadcast, pthread_cond_t *)
FORWARD1(int, pthread_rwlock_rdlock, pthread_rwlock_t *)
FORWARD1(int, pthread_rwlock_wrlock, pthread_rwlock_t *)
FORWARD1(int, pthread_rwlock_tryrdlock, pthread_rwlock_t *)
FORWARD1(int, pthread_rwlock_trywrlock, pthread_rwlock_t *)
FORWARD2(int, pthread_rwlock_timedrdlock, pthread_rwlock_t *restrict, const struct timespec *restrict)
FORWARD2(int, pthread_rwlock_timedwrlock, pthread_rwlock_t *restrict, const struct timespec *restrict)
FORWARD1(int, pthread_rwlock_unlock, pthread_rwlock_t *)
FORWARD1(int, pthread_spin_lock, pthread_spinlock_t *)
typedef void (*once_routine)(void);
FORWARD2(int, pthread_once, pthread_once_t *, once_routine)
FORWARD2(int, pthread_join, pthread_t, void **)
FORWARD1(int, sem_wait, sem_t *)
FORWARD2(int, sem_timedwait, sem_t *restrict, const struct timespec *restrict)
FORWARD1(int, sem_post, sem_t *)

/* Raw syscalls: Swift's Synchronization.Mutex and others reach futex through syscall(). */
long syscall(long number, ...)
{
    va_list ap;
    va_start(ap, number);
    long a = va_arg(ap, long), b = va_arg(ap, long), c = va_arg(ap, long);
    long d = va_arg(ap, long), e = va_arg(ap, long), f = va_arg(ap, long);
    va_end(ap);
    if (number == SYS_futex) CHECK(futex);
    else CHECK(syscall);
    return REAL(syscall)(number, a, b, c, d, e, f);
}

/* ---- Sleeps ----------------------------------------------------------------------- */

FORWARD2(int, nanosleep, const struct timespec *, struct timespec *)
FORWARD4(int, clock_nanosleep, clockid_t, int, const struct timespec *, struct timespec *)
FORWARD1(int, usleep, useconds_t)
FORWARD1(unsigned int, sleep, unsigned int)
int sched_yield(void) { CHECK(sched_yield); return REAL(sched_yield)(); }
int pause(void) { CHECK(pause); return REAL(pause)(); }

/* ---- File, socket and stream I/O --------------------------------------------------- */

FORWARD3(ssize_t, read, int, void *, size_t)
FORWARD3(ssize_t, write, int, const void *, size_t)
FORWARD4(ssize_t, pread, int, void *, size_t, off_t)
FORWARD4(ssize_t, pwrite, int, const void *, size_t, off_t)
FORWARD4(ssize_t, pread64, int, void *, size_t, off64_t)
FORWARD4(ssize_t, pwrite64, int, const void *, size_t, off64_t)
FORWARD3(ssize_t, readv, int, const struct iovec *, int)
FORWARD3(ssize_t, writev, int, const struct iovec *, int)

/* open and friends take a mode only when creating. */
static mode_t mode_argument(int flags, va_list ap)
{
    return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? (mode_t)va_arg(ap, int) : 0;
}
int open(const char *path, int flags, ...)
{
    CHECK(open);
    va_list ap;
    va_start(ap, flags);
    mode_t mode = mode_argument(flags, ap);
    va_end(ap);
    return REAL(open)(path, flags, mode);
}
int open64(const char *path, int flags, ...)
{
    CHECK(open64);
    va_list ap;
    va_start(ap, flags);
    mode_t mode = mode_argument(flags, ap);
    va_end(ap);
    return REAL(open64)(path, flags, mode);
}
int openat(int dir, const char *path, int flags, ...)
{
    CHECK(openat);
    va_list ap;
    va_start(ap, flags);
    mode_t mode = mode_argument(flags, ap);
    va_end(ap);
    return REAL(openat)(dir, path, flags, mode);
}
int openat64(int dir, const char *path, int flags, ...)
{
    CHECK(openat64);
    va_list ap;
    va_start(ap, flags);
    mode_t mode = mode_argument(flags, ap);
    va_end(ap);
    return REAL(openat64)(dir, path, flags, mode);
}
FORWARD2(int, creat, const char *, mode_t)
FORWARD1(int, close, int)
FORWARD1(int, fsync, int)
FORWARD1(int, fdatasync, int)
int ioctl(int fd, unsigned long request, ...)
{
    CHECK(ioctl);
    va_list ap;
    va_start(ap, request);
    void *arg = va_arg(ap, void *);
    va_end(ap);
    return REAL(ioctl)(fd, request, arg);
}
FORWARD4(ssize_t, send, int, const void *, size_t, int)
FORWARD6(ssize_t, sendto, int, const void *, size_t, int, const struct sockaddr *, socklen_t)
FORWARD3(ssize_t, sendmsg, int, const struct msghdr *, int)
FORWARD4(ssize_t, recv, int, void *, size_t, int)
FORWARD6(ssize_t, recvfrom, int, void *restrict, size_t, int, struct sockaddr *restrict, socklen_t *restrict)
FORWARD3(ssize_t, recvmsg, int, struct msghdr *, int)
FORWARD3(int, poll, struct pollfd *, nfds_t, int)
FORWARD4(int, ppoll, struct pollfd *, nfds_t, const struct timespec *, const sigset_t *)
FORWARD5(int, select, int, fd_set *restrict, fd_set *restrict, fd_set *restrict, struct timeval *restrict)
FORWARD4(int, epoll_wait, int, struct epoll_event *, int, int)
FORWARD2(FILE *, fopen, const char *restrict, const char *restrict)
FORWARD1(int, fclose, FILE *)
FORWARD4(size_t, fread, void *restrict, size_t, size_t, FILE *restrict)
FORWARD4(size_t, fwrite, const void *restrict, size_t, size_t, FILE *restrict)
FORWARD1(int, fflush, FILE *)
FORWARD2(int, fputs, const char *restrict, FILE *restrict)
FORWARD1(int, puts, const char *)
FORWARD3(int, vfprintf, FILE *restrict, const char *restrict, va_list)
int printf(const char *restrict format, ...)
{
    CHECK(printf);
    va_list ap;
    va_start(ap, format);
    int n = REAL(vfprintf)(stdout, format, ap);
    va_end(ap);
    return n;
}
int fprintf(FILE *restrict stream, const char *restrict format, ...)
{
    CHECK(fprintf);
    va_list ap;
    va_start(ap, format);
    int n = REAL(vfprintf)(stream, format, ap);
    va_end(ap);
    return n;
}

/* ---- Report ------------------------------------------------------------------------ */

/* Appends to a fixed buffer; the report is written at exit, when nothing is realtime. */
static char report[64 * 1024];
static size_t report_length;

static void say(const char *format, ...)
{
    if (report_length >= sizeof report) return;
    va_list ap;
    va_start(ap, format);
    int n = vsnprintf(report + report_length, sizeof report - report_length, format, ap);
    va_end(ap);
    if (n > 0) report_length += (size_t)n;
    if (report_length > sizeof report) report_length = sizeof report;
}

static void describe_frame(void *address)
{
    Dl_info info;
    if (dladdr(address, &info) && info.dli_fname) {
        uintptr_t offset = (uintptr_t)address - (uintptr_t)info.dli_fbase;
        if (info.dli_sname) {
            say("    %p %s+0x%lx (%s+0x%lx)\n", address, info.dli_fname, (unsigned long)offset,
                info.dli_sname, (unsigned long)((uintptr_t)address - (uintptr_t)info.dli_saddr));
        } else {
            say("    %p %s+0x%lx\n", address, info.dli_fname, (unsigned long)offset);
        }
    } else {
        say("    %p ?\n", address);
    }
}

static void write_report(void)
{
    /* A process that never registered a callback has nothing to say, and must not
     * overwrite the report of the one that did (LD_PRELOAD reaches child processes). */
    if (__atomic_load_n(&wrapped_count, __ATOMIC_RELAXED) == 0) return;
    uint64_t total = 0;
    for (int f = 0; f < F_COUNT; f++) total += __atomic_load_n(&violations[f], __ATOMIC_RELAXED);
    uint64_t n = __atomic_load_n(&cycles, __ATOMIC_RELAXED);
    char exe[512];
    ssize_t exeLength = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[exeLength > 0 ? exeLength : 0] = 0;

    say("rtcheck report\n");
    say("pid %d\n", (int)getpid());
    say("executable %s\n", exe);
    say("callbacks %d\n", wrapped_count < MAX_WRAPPED ? wrapped_count : MAX_WRAPPED);
    say("unwatched %llu\n", (unsigned long long)unwatched);
    say("cycles %llu\n", (unsigned long long)n);
    say("callback_ns_mean %llu\n", (unsigned long long)(n ? callback_ns_total / n : 0));
    say("callback_ns_max %llu\n", (unsigned long long)callback_ns_max);
    say("violations %llu\n", (unsigned long long)total);
    for (int f = 0; f < F_COUNT; f++) {
        uint64_t v = __atomic_load_n(&violations[f], __ATOMIC_RELAXED);
        if (v) say("violation %s %llu\n", watched_names[f], (unsigned long long)v);
    }
    int stored = site_count < MAX_SITES ? site_count : MAX_SITES;
    for (int i = 0; i < stored; i++) {
        struct site *s = &sites[i];
        if (!__atomic_load_n(&s->ready, __ATOMIC_ACQUIRE)) continue;
        say("site %d %s thread %d\n", i + 1, watched_names[s->function], (int)s->thread);
        /* Frame 0 is record() itself. */
        for (int d = 1; d < s->depth; d++) describe_frame(s->frames[d]);
    }

    const char *target = getenv("RTCHECK_REPORT");
    int fd = 2;
    if (target && *target) {
        char path[1024];
        const char *marker = strstr(target, "%p");
        if (marker) {
            snprintf(path, sizeof path, "%.*s%d%s", (int)(marker - target), target, (int)getpid(), marker + 2);
        } else {
            snprintf(path, sizeof path, "%s", target);
        }
        fd = REAL(open)(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd < 0) fd = 2;
    }
    for (size_t done = 0; done < report_length;) {
        ssize_t w = REAL(write)(fd, report + done, report_length - done);
        if (w <= 0) break;
        done += (size_t)w;
    }
    if (fd != 2) REAL(close)(fd);
}

__attribute__((constructor)) static void rtcheck_start(void)
{
    /* The first backtrace() loads the unwinder (dlopen, malloc): do it now, not inside a
     * callback's violation. */
    void *warm[2];
    busy = 1;
    backtrace(warm, 2);
    busy = 0;
}

__attribute__((destructor)) static void rtcheck_finish(void)
{
    busy = 1;
    write_report();
}

#else /* RTCHECK_RTSAN */

/* rtsan's runtime normally starts from an executable's .preinit_array, which a shared
 * library cannot have: start it here, before main. */
__attribute__((constructor)) static void rtcheck_start(void) { __rtsan_ensure_initialized(); }

/* rtsan reports violations itself; at exit we only say how many cycles it watched. */
__attribute__((destructor)) static void rtcheck_finish(void)
{
    if (__atomic_load_n(&wrapped_count, __ATOMIC_RELAXED) == 0) return; /* see write_report */
    const char *target = getenv("RTCHECK_REPORT");
    FILE *out = target && *target ? fopen(target, "w") : stderr;
    if (!out) return;
    uint64_t n = __atomic_load_n(&cycles, __ATOMIC_RELAXED);
    fprintf(out, "rtcheck report (rtsan)\ncallbacks %d\nunwatched %llu\ncycles %llu\n"
                 "callback_ns_mean %llu\ncallback_ns_max %llu\n",
            wrapped_count, (unsigned long long)unwatched, (unsigned long long)n,
            (unsigned long long)(n ? callback_ns_total / n : 0), (unsigned long long)callback_ns_max);
    if (out != stderr) fclose(out);
}

#endif
