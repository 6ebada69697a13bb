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
 *
 * Options after the client name, for the armed-recording tests:
 *   --bursts L1,Q1,L2,…  play the pattern at 1/256 of its level (quiet: below -54 dBFS)
 *                        except in bursts: on SIGUSR1, from the next cycle on, L1 frames
 *                        loud, Q1 quiet, L2 loud, … (then quiet). Loud is the pattern moved
 *                        0.25 away from zero (|x| in [0.25, 0.75)), so every block of a burst
 *                        peaks at or above -12 dBFS. Both are exact in float, and the pattern
 *                        frame of every sample can be read back. Says "burst at K" (K its
 *                        frame) when the first burst starts and "bursts done" after the last.
 *   --transport          SIGUSR1 starts the JACK transport, SIGUSR2 stops it; each time it
 *                        has stopped after rolling, says "rolled N": the frames of the
 *                        cycles in which jack_transport_query said Rolling.
 *   --latency N          declare a capture latency of N frames on every port (a latency
 *                        callback, jack_port_set_latency_range): the source as a sound card
 *                        or a network link would state it. SIGUSR1 doubles it and asks JACK
 *                        to recompute (jack_recompute_total_latencies), unless --transport
 *                        or --freewheel take SIGUSR1; each time the callback has
 *                        declared a new value it says "latency N".
 *
 * And for runs far longer than the test (the wall-clock tests' hours):
 *   --freewheel S,K      on SIGUSR1, puts the server in freewheel mode for S seconds of its
 *                        audio (from the frame then), each cycle waiting so that the audio
 *                        runs K times faster than real time, not as fast as the machine
 *                        can: the recorder's ring (at most 600 s of audio) then holds what
 *                        its writer has not yet written for 600/K seconds. Then back to real
 *                        time, so that the recorder ends (and leaves) at real time: jackd 1.9
 *                        loops on a client that leaves while it freewheels. Says
 *                        "freewheeled" once back.
 */
#include <jack/jack.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <signal.h>
#include <pthread.h>
#include <string.h>
#include <jack/transport.h>
#include <time.h>

#define MAX_BURSTS 64
static long long bursts[MAX_BURSTS];
static int burst_count;
static int quiet_mode;
static int transport_mode;
/* --latency: the capture latency declared (frames), and the last one the callback set. */
static volatile jack_nframes_t declared_latency;
static volatile jack_nframes_t latency_set;
static int latency_mode;
/* Set by SIGUSR1 (bursts: start the schedule; transport: start) and SIGUSR2 (stop). */
static volatile sig_atomic_t usr1, usr2;
/* Process thread: the schedule's state; the frame at which it started (-1: not yet). */
static volatile long long schedule_start = -1;
static volatile int schedule_done;
/* Process thread: frames of the current roll, and the last finished roll's count. */
static unsigned long long rolling_frames;
static volatile unsigned long long rolled_count;
static volatile int rolled_rolls;
static int was_rolling;

/* --freewheel: the seconds of audio and the speed, whether the server freewheels, and
 * (process thread) when the paced stretch began and the frames since. */
static double pace, freewheel_seconds;
static volatile int freewheeling;
static int paced;
static struct timespec pace_start;
static unsigned long long pace_frames;
static jack_nframes_t sample_rate;

static void on_freewheel(int starting, void *arg) { (void)arg; freewheeling = starting; }

/* While freewheeling, sleeps until the audio so far is due at `pace` times real time. */
static void keep_pace(jack_nframes_t n) {
    if (pace <= 0 || !freewheeling) { paced = 0; return; }
    if (!paced) {
        paced = 1;
        pace_frames = 0;
        clock_gettime(CLOCK_MONOTONIC, &pace_start);
    }
    pace_frames += n;
    double due = (double)pace_frames / sample_rate / pace;
    struct timespec target = pace_start;
    target.tv_sec += (time_t)due;
    target.tv_nsec += (long)((due - (double)(time_t)due) * 1e9);
    if (target.tv_nsec >= 1000000000L) { target.tv_sec += 1; target.tv_nsec -= 1000000000L; }
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &target, NULL) != 0) {}
}

static void on_usr1(int sig) { (void)sig; usr1 = 1; }
static void on_usr2(int sig) { (void)sig; usr2 = 1; }

/* Whether pattern frame k is inside a burst of the schedule. */
static int loud_at(unsigned long long k) {
    if (schedule_start < 0 || k < (unsigned long long)schedule_start) return 0;
    long long t = (long long)(k - (unsigned long long)schedule_start);
    for (int i = 0; i < burst_count; i++) {
        if (t < bursts[i]) return (i % 2) == 0;
        t -= bursts[i];
    }
    return 0;
}

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
    if (transport_mode) {
        int rolling = jack_transport_query(client, NULL) == JackTransportRolling;
        if (rolling) rolling_frames += n;
        if (was_rolling && !rolling) {
            rolled_count = rolling_frames;
            rolling_frames = 0;
            rolled_rolls++;
        }
        was_rolling = rolling;
    }
    if (quiet_mode && usr1 && schedule_start < 0) schedule_start = (long long)frame;
    for (int c = 0; c < channels; c++) {
        float *out = jack_port_get_buffer(ports[c], n);
        for (jack_nframes_t i = 0; i < n; i++) {
            unsigned long long k = frame + i + (unsigned long long)c * 7919ULL;
            float v = (float)((long)(k % 16384) - 8192) / 16384.0f;
            if (quiet_mode) v = loud_at(frame + i) ? (v >= 0 ? v + 0.25f : v - 0.25f) : v / 256.0f;
            out[i] = v;
        }
    }
    frame += n;
    keep_pace(n);
    if (quiet_mode && schedule_start >= 0 && !schedule_done) {
        long long total = 0;
        for (int i = 0; i < burst_count; i++) total += bursts[i];
        if ((long long)frame >= schedule_start + total) schedule_done = 1;
    }
    return 0;
}

/* JACK's latency callback (its notification thread): states our ports' capture latency. */
static void on_latency(jack_latency_callback_mode_t mode, void *arg) {
    (void)arg;
    if (mode != JackCaptureLatency) return;
    jack_latency_range_t range = { declared_latency, declared_latency };
    for (int c = 0; c < channels; c++) jack_port_set_latency_range(ports[c], JackCaptureLatency, &range);
    latency_set = declared_latency;
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
    for (int a = 3; a < argc; a++) {
        if (strcmp(argv[a], "--transport") == 0) {
            transport_mode = 1;
        } else if (strcmp(argv[a], "--latency") == 0 && a + 1 < argc) {
            latency_mode = 1;
            declared_latency = (jack_nframes_t)atol(argv[++a]);
        } else if (strcmp(argv[a], "--freewheel") == 0 && a + 1 < argc) {
            if (sscanf(argv[++a], "%lf,%lf", &freewheel_seconds, &pace) != 2 || freewheel_seconds <= 0 || pace <= 0) {
                fprintf(stderr, "jackwave-testsource: --freewheel takes SECONDS,SPEED\n");
                return 2;
            }
        } else if (strcmp(argv[a], "--bursts") == 0 && a + 1 < argc) {
            quiet_mode = 1;
            char *list = argv[++a];
            for (char *p = strtok(list, ","); p && burst_count < MAX_BURSTS; p = strtok(NULL, ","))
                bursts[burst_count++] = atoll(p);
        } else {
            fprintf(stderr, "jackwave-testsource: unknown option %s\n", argv[a]);
            return 2;
        }
    }
    signal(SIGUSR1, on_usr1);
    signal(SIGUSR2, on_usr2);
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
    if (latency_mode) jack_set_latency_callback(client, on_latency, NULL);
    jack_set_freewheel_callback(client, on_freewheel, NULL);
    sample_rate = jack_get_sample_rate(client);
    if (jack_activate(client) != 0) {
        fprintf(stderr, "jackwave-testsource: cannot activate\n");
        return 1;
    }
    /* Test runners may start us with signals blocked; SIGTERM must end us at once. */
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGUSR1);
    sigaddset(&set, SIGUSR2);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
    printf("ready\n");
    fflush(stdout);
    unsigned long long reported = 0;
    int said_start = 0, said_done = 0, said_rolls = 0;
    jack_nframes_t said_latency = 0;
    if (latency_mode) jack_recompute_total_latencies(client);
    /* --freewheel: the frame it ends at once started (0: not yet); done once back. */
    unsigned long long freewheel_end = 0;
    int freewheel_done = 0;
    for (;;) {
        /* Freewheeling, a millisecond is K of audio: look often, to end near its frame. */
        usleep(freewheel_end && !freewheel_done ? 1000 : 20000);
        if (latency_mode && !transport_mode && pace <= 0 && usr1) {
            usr1 = 0;
            declared_latency *= 2;
            jack_recompute_total_latencies(client);
        }
        if (latency_mode && latency_set != said_latency) {
            said_latency = latency_set;
            printf("latency %u\n", (unsigned)said_latency);
            fflush(stdout);
        }
        if (pace > 0 && usr1 && !freewheel_end) {
            usr1 = 0;
            freewheel_end = frame + (unsigned long long)(freewheel_seconds * sample_rate);
            jack_set_freewheel(client, 1);
        }
        if (freewheel_end && !freewheel_done && frame >= freewheel_end) {
            freewheel_done = 1;
            jack_set_freewheel(client, 0);
            printf("freewheeled\n");
            fflush(stdout);
        }
        if (transport_mode && usr1) { usr1 = 0; jack_transport_start(client); }
        if (transport_mode && usr2) { usr2 = 0; jack_transport_stop(client); }
        if (rolled_rolls != said_rolls) {
            said_rolls = rolled_rolls;
            printf("rolled %llu\n", rolled_count);
            fflush(stdout);
        }
        if (quiet_mode && !said_start && schedule_start >= 0) {
            said_start = 1;
            printf("burst at %lld\n", schedule_start);
            fflush(stdout);
        }
        if (quiet_mode && !said_done && schedule_done) {
            said_done = 1;
            printf("bursts done\n");
            fflush(stdout);
        }
        unsigned long long now = skipped;
        if (now != reported) {
            printf("skipped %llu\n", now);
            fflush(stdout);
            reported = now;
        }
    }
}
