/*
 * jackwave-testdevice: a JACK client that stands for a device under test, with every
 * parameter of its transfer known, so that the `jackwave measure` tests can compute what
 * it must report independently (scipy's freqz, a polynomial's closed form).
 *
 *   jackwave-testdevice CHANNELS CLIENT_NAME [options]
 *
 * Ports in_C and out_C (C from 1). Each channel runs, in double precision, per sample:
 *
 *   u_C = gain_C * biquad_C(poly_C(x_C)) + sum over F of leak_{F->C} * x_F
 *   y_C = fir(u_C, delayed) + noise_C
 *
 * Options (C, F channels from 1; a channel not named keeps the identity):
 *   --poly C:a1,a2,a3,a4,a5    poly(x) = a1 x + a2 x^2 + a3 x^3 + a4 x^4 + a5 x^5
 *   --biquad C:b0,b1,b2,a1,a2  y[n] = b0 x[n] + b1 x[n-1] + b2 x[n-2] - a1 y[n-1] - a2 y[n-2]
 *   --gain C:G                 linear gain
 *   --leak F:C:G               channel F's input, times G, added to channel C (before the delay)
 *   --noise C:RMS:SEED         Gaussian noise of RMS (linear), from a SplitMix64 seeded with SEED
 *                              (Box-Muller), added at the output
 *   --delay D                  every channel's delay in frames, D >= 128 (default 128):
 *                              floor(D) - 127 whole frames, then a 255-tap windowed-sinc FIR
 *                              h[i] = sinc(i - 127 - f) * kaiser(i - 127 - f), i = 0..254,
 *                              f = D - floor(D), kaiser(x) = I0(10 sqrt(1 - (x/128)^2)) / I0(10),
 *                              normalized to sum 1; its delay is D - floor(D) + 127 frames.
 *
 * It runs until killed; "ready" on stdout says its ports exist and it is active. When the
 * server's clock runs on between two of its cycles (PipeWire skips a late client), it says
 * "skipped N" on stdout, N frames in all so far. When one or two whole cycles of digital
 * silence on every input come between cycles that were not silent (PipeWire, loaded, may
 * run a client without its source's output of a cycle: no signal jackwave measures has such
 * a gap), it says "gaps N", N such gaps in all so far. Either is also said as "disturbed at
 * T", T the server's frame time (jack_last_frame_time) of the cycle that noticed it, so that
 * a test can tell whether it fell within a measurement.
 */
#include <jack/jack.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_CHANNELS 16
#define TAPS 255
#define CENTER 127
/* Frames of history per channel: a power of two above the longest delay plus the FIR. */
#define HISTORY (1 << 17)

typedef struct {
    double poly[5];
    double b0, b1, b2, a1, a2;
    double x1, x2, y1, y2;
    double gain;
    double leak[MAX_CHANNELS];
    double noise_rms;
    uint64_t noise_state;
    double history[HISTORY];
} channel_t;

static channel_t chan[MAX_CHANNELS];
static int channels;
static jack_port_t *in_ports[MAX_CHANNELS], *out_ports[MAX_CHANNELS];
static double taps[TAPS];
static long whole_delay;          /* floor(D) - 127 */
static unsigned long long position; /* samples written into every history */
static jack_client_t *client;
static volatile unsigned long long skipped;
static jack_nframes_t last_end;
static int have_last;
static volatile unsigned long long gaps;
/* The frame time of the cycle that last noticed a skip or a gap (process thread writes). */
static volatile jack_nframes_t disturbed_at;
/* Process thread: whether the last cycle carried signal, and the silent cycles since. */
static int last_loud;
static int silent_cycles;

static uint64_t splitmix64(uint64_t *state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* A uniform in (0, 1): 53 random bits, never 0. */
static double uniform(uint64_t *state) { return ((double)(splitmix64(state) >> 11) + 0.5) / 9007199254740992.0; }

/* One standard normal sample (Box-Muller, the cosine branch only: one per two uniforms). */
static double gaussian(uint64_t *state) {
    double u1 = uniform(state), u2 = uniform(state);
    return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

/* The modified Bessel function I0, by its power series (converges fast for x <= 20). */
static double bessel_i0(double x) {
    double sum = 1, term = 1;
    for (int k = 1; k < 60; k++) {
        term *= (x / (2.0 * k)) * (x / (2.0 * k));
        sum += term;
        if (term < 1e-17 * sum) break;
    }
    return sum;
}

static void design_fir(double fraction) {
    double total = 0;
    for (int i = 0; i < TAPS; i++) {
        double x = i - CENTER - fraction;
        double s = x == 0 ? 1.0 : sin(M_PI * x) / (M_PI * x);
        double r = x / 128.0;
        double w = fabs(r) < 1 ? bessel_i0(10.0 * sqrt(1.0 - r * r)) / bessel_i0(10.0) : 0;
        taps[i] = s * w;
        total += taps[i];
    }
    for (int i = 0; i < TAPS; i++) taps[i] /= total;
}

static int process(jack_nframes_t n, void *arg) {
    (void)arg;
    jack_nframes_t start = jack_last_frame_time(client);
    if (have_last && start != last_end) {
        skipped += (jack_nframes_t)(start - last_end);
        disturbed_at = start;
    }
    last_end = start + n;
    have_last = 1;
    const float *in[MAX_CHANNELS];
    float *out[MAX_CHANNELS];
    int silent = 1;
    for (int c = 0; c < channels; c++) {
        in[c] = jack_port_get_buffer(in_ports[c], n);
        out[c] = jack_port_get_buffer(out_ports[c], n);
        for (jack_nframes_t i = 0; i < n && silent; i++) silent = in[c][i] == 0.0f;
    }
    if (silent) {
        silent_cycles++;
    } else {
        if (last_loud && silent_cycles >= 1 && silent_cycles <= 2) {
            gaps++;
            disturbed_at = start;
        }
        last_loud = 1;
        silent_cycles = 0;
    }
    for (jack_nframes_t i = 0; i < n; i++) {
        unsigned long long p = position + i;
        for (int c = 0; c < channels; c++) {
            channel_t *ch = &chan[c];
            double x = in[c][i];
            double v = x * (ch->poly[0] + x * (ch->poly[1] + x * (ch->poly[2] + x * (ch->poly[3] + x * ch->poly[4]))));
            double y = ch->b0 * v + ch->b1 * ch->x1 + ch->b2 * ch->x2 - ch->a1 * ch->y1 - ch->a2 * ch->y2;
            ch->x2 = ch->x1; ch->x1 = v; ch->y2 = ch->y1; ch->y1 = y;
            double u = ch->gain * y;
            for (int f = 0; f < channels; f++) u += ch->leak[f] * in[f][i];
            ch->history[p & (HISTORY - 1)] = u;
            double acc = 0;
            unsigned long long newest = p - (unsigned long long)whole_delay;
            for (int t = 0; t < TAPS; t++) acc += taps[t] * ch->history[(newest - (unsigned long long)t) & (HISTORY - 1)];
            if (ch->noise_rms > 0) acc += ch->noise_rms * gaussian(&ch->noise_state);
            out[c][i] = (float)acc;
        }
    }
    position += n;
    return 0;
}

static int channel_arg(const char *text, char **rest) {
    long c = strtol(text, rest, 10);
    if (**rest != ':' || c < 1 || c > channels) {
        fprintf(stderr, "jackwave-testdevice: bad channel in '%s'\n", text);
        exit(2);
    }
    (*rest)++;
    return (int)c - 1;
}

static int numbers(char *text, double *values, int most) {
    int count = 0;
    for (char *p = strtok(text, ","); p && count < most; p = strtok(NULL, ",")) values[count++] = strtod(p, NULL);
    return count;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: jackwave-testdevice CHANNELS CLIENT_NAME [options]\n");
        return 2;
    }
    channels = atoi(argv[1]);
    if (channels < 1 || channels > MAX_CHANNELS) {
        fprintf(stderr, "jackwave-testdevice: channels must be 1..%d\n", MAX_CHANNELS);
        return 2;
    }
    const char *name = argv[2];
    for (int c = 0; c < channels; c++) {
        chan[c].poly[0] = 1;
        chan[c].b0 = 1;
        chan[c].gain = 1;
    }
    double delay = 128;
    for (int a = 3; a < argc; a++) {
        if (a + 1 >= argc) {
            fprintf(stderr, "jackwave-testdevice: %s needs a value\n", argv[a]);
            return 2;
        }
        char *value = argv[++a], *rest;
        double v[5] = {0};
        if (strcmp(argv[a - 1], "--delay") == 0) {
            delay = strtod(value, NULL);
            if (delay < 128 || delay > HISTORY - 2 * TAPS) {
                fprintf(stderr, "jackwave-testdevice: --delay must be between 128 and %d\n", HISTORY - 2 * TAPS);
                return 2;
            }
        } else if (strcmp(argv[a - 1], "--poly") == 0) {
            int c = channel_arg(value, &rest);
            if (numbers(rest, v, 5) != 5) { fprintf(stderr, "jackwave-testdevice: --poly takes 5 coefficients\n"); return 2; }
            memcpy(chan[c].poly, v, sizeof v);
        } else if (strcmp(argv[a - 1], "--biquad") == 0) {
            int c = channel_arg(value, &rest);
            if (numbers(rest, v, 5) != 5) { fprintf(stderr, "jackwave-testdevice: --biquad takes 5 coefficients\n"); return 2; }
            chan[c].b0 = v[0]; chan[c].b1 = v[1]; chan[c].b2 = v[2]; chan[c].a1 = v[3]; chan[c].a2 = v[4];
        } else if (strcmp(argv[a - 1], "--gain") == 0) {
            int c = channel_arg(value, &rest);
            chan[c].gain = strtod(rest, NULL);
        } else if (strcmp(argv[a - 1], "--leak") == 0) {
            int from = channel_arg(value, &rest);
            int to = channel_arg(rest, &rest);
            chan[to].leak[from] = strtod(rest, NULL);
        } else if (strcmp(argv[a - 1], "--noise") == 0) {
            int c = channel_arg(value, &rest);
            chan[c].noise_rms = strtod(rest, &rest);
            if (*rest != ':') { fprintf(stderr, "jackwave-testdevice: --noise takes C:RMS:SEED\n"); return 2; }
            chan[c].noise_state = strtoull(rest + 1, NULL, 10);
        } else {
            fprintf(stderr, "jackwave-testdevice: unknown option %s\n", argv[a - 1]);
            return 2;
        }
    }
    whole_delay = (long)floor(delay) - CENTER;
    design_fir(delay - floor(delay));

    jack_status_t status;
    client = jack_client_open(name, JackNoStartServer | JackUseExactName, &status);
    if (!client) {
        fprintf(stderr, "jackwave-testdevice: cannot open client (status 0x%x)\n", status);
        return 1;
    }
    for (int c = 0; c < channels; c++) {
        char port_name[32];
        snprintf(port_name, sizeof port_name, "in_%d", c + 1);
        in_ports[c] = jack_port_register(client, port_name, JACK_DEFAULT_AUDIO_TYPE, JackPortIsInput, 0);
        snprintf(port_name, sizeof port_name, "out_%d", c + 1);
        out_ports[c] = jack_port_register(client, port_name, JACK_DEFAULT_AUDIO_TYPE, JackPortIsOutput, 0);
        if (!in_ports[c] || !out_ports[c]) {
            fprintf(stderr, "jackwave-testdevice: cannot register channel %d's ports\n", c + 1);
            return 1;
        }
    }
    jack_set_process_callback(client, process, NULL);
    if (jack_activate(client) != 0) {
        fprintf(stderr, "jackwave-testdevice: cannot activate\n");
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
    unsigned long long reported = 0, reported_gaps = 0;
    jack_nframes_t reported_at = 0;
    for (;;) {
        usleep(20000);
        unsigned long long now = skipped, now_gaps = gaps;
        jack_nframes_t at = disturbed_at;
        if (now != reported) {
            printf("skipped %llu\n", now);
            reported = now;
        }
        if (now_gaps != reported_gaps) {
            printf("gaps %llu\n", now_gaps);
            reported_gaps = now_gaps;
        }
        if (at != reported_at) {
            printf("disturbed at %u\n", at);
            reported_at = at;
        }
        fflush(stdout);
    }
}
