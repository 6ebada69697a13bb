/*
 * jackwave-testsource: a JACK client that plays a known, exactly representable pattern,
 * so tests can check a recording sample by sample, channel order included.
 *
 *   jackwave-testsource CHANNELS [CLIENT_NAME]
 *
 * Port out_C (C from 1) carries, at the client's frame k (counted from its first cycle):
 *
 *   value(k, C) = (((k + (C - 1) * 7919) mod 16384) - 8192) / 16384
 *
 * Every value is a multiple of 2^-14 in [-0.5, 0.5), so it survives float storage exactly,
 * and the channel offsets (a prime) make any channel swap or frame slip visible.
 * It runs until killed; "ready" on stdout says its ports exist and it is active. When the
 * server's clock runs on between two of its cycles (a server that skipped it: PipeWire
 * does, for a late client), it says "skipped N" on stdout, N frames in all so far.
 */
#include <jack/jack.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <signal.h>
#include <pthread.h>

#define MAX_CHANNELS 256

static jack_port_t *ports[MAX_CHANNELS];
static int channels;
static unsigned long long frame;
static jack_client_t *client;
/* Frames the server's clock ran between our cycles; written by the process thread only. */
static volatile unsigned long long skipped;
static jack_nframes_t last_end;
static int have_last;

static int process(jack_nframes_t n, void *arg) {
    (void)arg;
    jack_nframes_t start = jack_last_frame_time(client);
    if (have_last && start != last_end) skipped += (jack_nframes_t)(start - last_end);
    last_end = start + n;
    have_last = 1;
    for (int c = 0; c < channels; c++) {
        float *out = jack_port_get_buffer(ports[c], n);
        for (jack_nframes_t i = 0; i < n; i++) {
            unsigned long long k = frame + i + (unsigned long long)c * 7919ULL;
            out[i] = (float)((long)(k % 16384) - 8192) / 16384.0f;
        }
    }
    frame += n;
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: jackwave-testsource CHANNELS [CLIENT_NAME]\n");
        return 2;
    }
    channels = atoi(argv[1]);
    if (channels < 1 || channels > MAX_CHANNELS) {
        fprintf(stderr, "jackwave-testsource: channels must be 1..%d\n", MAX_CHANNELS);
        return 2;
    }
    const char *name = argc > 2 ? argv[2] : "testsource";
    jack_status_t status;
    client = jack_client_open(name, JackNoStartServer | JackUseExactName, &status);
    if (!client) {
        fprintf(stderr, "jackwave-testsource: cannot open client (status 0x%x)\n", status);
        return 1;
    }
    for (int c = 0; c < channels; c++) {
        char port_name[32];
        snprintf(port_name, sizeof port_name, "out_%d", c + 1);
        ports[c] = jack_port_register(client, port_name, JACK_DEFAULT_AUDIO_TYPE, JackPortIsOutput, 0);
        if (!ports[c]) {
            fprintf(stderr, "jackwave-testsource: cannot register %s\n", port_name);
            return 1;
        }
    }
    jack_set_process_callback(client, process, NULL);
    if (jack_activate(client) != 0) {
        fprintf(stderr, "jackwave-testsource: cannot activate\n");
        return 1;
    }
    /* Test runners may start us with signals blocked; SIGTERM must end us at once. */
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
    printf("ready\n");
    fflush(stdout);
    unsigned long long reported = 0;
    for (;;) {
        usleep(20000);
        unsigned long long now = skipped;
        if (now != reported) {
            printf("skipped %llu\n", now);
            fflush(stdout);
            reported = now;
        }
    }
}
