/*
 * bad_client: a JACK client whose process callback breaks (or keeps) the realtime rules on
 * purpose, to show that rtcheck.so sees what it claims to see.
 *
 *   bad_client MODE CYCLES [BOUND_SECONDS]
 *
 * MODE: clean (does nothing wrong), malloc (malloc + free each cycle), usleep (sleeps
 * 10 us each cycle), mutex (locks and unlocks a mutex each cycle), write (writes one byte
 * to /dev/null each cycle). Runs until its callback has run CYCLES times, never for a
 * guessed time: a loaded machine may take long to run the first cycle. Then it exits 0,
 * having run normally (so that rtcheck's exit report is written). If BOUND_SECONDS
 * (default 30) pass first, it says how far it got and exits 3 (TIMED_OUT): a test must
 * not take that for a client that a sanitizer stopped. The server comes from
 * $JACK_DEFAULT_SERVER.
 *
 * Build: gcc -O0 -o bad_client bad_client.c -ljack
 * (-O0 so that the compiler cannot elide the malloc/free pair.)
 */
#include <jack/jack.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <time.h>

enum mode { CLEAN, MALLOC, USLEEP, MUTEX, WRITE };
static enum mode mode;
static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static int devnull = -1;
/* Where allocations escape to, so that they are real. */
static void *volatile sink;
/* Written by the process thread, read by the main thread: atomics, no lock. */
static unsigned long cycles;
#define TIMED_OUT 3

static int process(jack_nframes_t nframes, void *arg)
{
    (void)arg;
    switch (mode) {
    case CLEAN: break;
    case MALLOC:
        sink = malloc(64 + nframes);
        free(sink);
        break;
    case USLEEP: usleep(10); break;
    case MUTEX:
        pthread_mutex_lock(&mutex);
        pthread_mutex_unlock(&mutex);
        break;
    case WRITE: (void)!write(devnull, "x", 1); break;
    }
    __atomic_add_fetch(&cycles, 1, __ATOMIC_RELEASE);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 3 && argc != 4) {
        fprintf(stderr, "usage: bad_client clean|malloc|usleep|mutex|write CYCLES [BOUND_SECONDS]\n");
        return 2;
    }
    const char *names[] = { "clean", "malloc", "usleep", "mutex", "write" };
    int found = 0;
    for (int i = 0; i < 5; i++) {
        if (strcmp(argv[1], names[i]) == 0) { mode = (enum mode)i; found = 1; }
    }
    if (!found) { fprintf(stderr, "bad_client: unknown mode %s\n", argv[1]); return 2; }
    long wanted = atol(argv[2]);
    double bound = argc == 4 ? atof(argv[3]) : 30;
    if (wanted < 1 || !(bound > 0)) { fprintf(stderr, "bad_client: CYCLES and BOUND_SECONDS must be positive\n"); return 2; }
    devnull = open("/dev/null", O_WRONLY);

    jack_status_t status;
    jack_client_t *client = jack_client_open("bad_client", JackNoStartServer, &status);
    if (!client) { fprintf(stderr, "bad_client: cannot open a client (status 0x%x)\n", status); return 1; }
    if (jack_set_process_callback(client, process, NULL) != 0) { fprintf(stderr, "bad_client: callback refused\n"); return 1; }
    if (jack_activate(client) != 0) { fprintf(stderr, "bad_client: cannot activate\n"); return 1; }
    /* Polled from the main thread, outside the callback: no sleep is judged here. */
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    unsigned long seen;
    while ((seen = __atomic_load_n(&cycles, __ATOMIC_ACQUIRE)) < (unsigned long)wanted) {
        clock_gettime(CLOCK_MONOTONIC, &now);
        if ((double)(now.tv_sec - start.tv_sec) + (now.tv_nsec - start.tv_nsec) / 1e9 > bound) break;
        usleep(1000);
    }
    jack_deactivate(client);
    jack_client_close(client);
    unsigned long total = __atomic_load_n(&cycles, __ATOMIC_ACQUIRE);
    if (seen < (unsigned long)wanted) {
        fprintf(stderr, "bad_client %s: the callback ran %lu of %ld times in %g s\n", names[mode], total, wanted, bound);
        return TIMED_OUT;
    }
    printf("bad_client %s: %lu cycles\n", names[mode], total);
    return 0;
}
