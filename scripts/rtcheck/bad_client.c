/*
 * bad_client: a JACK client whose process callback breaks (or keeps) the realtime rules on
 * purpose, to show that rtcheck.so sees what it claims to see.
 *
 *   bad_client MODE SECONDS
 *
 * MODE: clean (does nothing wrong), malloc (malloc + free each cycle), usleep (sleeps
 * 10 us each cycle), mutex (locks and unlocks a mutex each cycle), write (writes one byte
 * to /dev/null each cycle). Exits 0 after SECONDS, having run normally (so that rtcheck's
 * exit report is written). The server comes from $JACK_DEFAULT_SERVER.
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

enum mode { CLEAN, MALLOC, USLEEP, MUTEX, WRITE };
static enum mode mode;
static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static int devnull = -1;
/* Where allocations escape to, so that they are real. */
static void *volatile sink;
static volatile unsigned long cycles;

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
    cycles++;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: bad_client clean|malloc|usleep|mutex|write SECONDS\n");
        return 2;
    }
    const char *names[] = { "clean", "malloc", "usleep", "mutex", "write" };
    int found = 0;
    for (int i = 0; i < 5; i++) {
        if (strcmp(argv[1], names[i]) == 0) { mode = (enum mode)i; found = 1; }
    }
    if (!found) { fprintf(stderr, "bad_client: unknown mode %s\n", argv[1]); return 2; }
    double seconds = atof(argv[2]);
    devnull = open("/dev/null", O_WRONLY);

    jack_status_t status;
    jack_client_t *client = jack_client_open("bad_client", JackNoStartServer, &status);
    if (!client) { fprintf(stderr, "bad_client: cannot open a client (status 0x%x)\n", status); return 1; }
    if (jack_set_process_callback(client, process, NULL) != 0) { fprintf(stderr, "bad_client: callback refused\n"); return 1; }
    if (jack_activate(client) != 0) { fprintf(stderr, "bad_client: cannot activate\n"); return 1; }
    usleep((useconds_t)(seconds * 1e6));
    jack_deactivate(client);
    jack_client_close(client);
    printf("bad_client %s: %lu cycles\n", names[mode], cycles);
    return 0;
}
