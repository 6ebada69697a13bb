/*
 * jackwave-ltcsource: a JACK client that plays SMPTE linear timecode made by libltc's own
 * encoder, for the timecode tests: at a chosen level, high-passed as a recorder's input
 * would, with frames muted, garbled or re-jammed on demand.
 *
 *   jackwave-ltcsource CLIENT_NAME [options]
 *
 *   --fps 24|25|29.97df|30  the code's rate (default 25); 29.97df is 30000/1001 fps with
 *                           the drop-frame flag set
 *   --start HH:MM:SS:FF     the first frame's label (default 01:00:00:00)
 *   --level DB              the peak level in dBFS, after the high-pass (default -20)
 *   --highpass HZ           a 2nd-order Butterworth high-pass at HZ (a recorder's input filter)
 *   --mute A,B              LTC frames A to B (both included) are silence
 *   --garble N              LTC frame N carries another label (hours + 7): a well-formed
 *                           frame that disagrees with its neighbours
 *   --jump N,HH:MM:SS:FF    from LTC frame N on, the code goes on from that label (a re-jam)
 *   --seconds S             seconds of code (default 20); silence after them
 *   --noise                 white noise in place of the code (xorshift, uniform): what a
 *                           wrong cable or a hum on the input gives; no code ever locks
 *   --wait                  silence until SIGUSR1; the code starts at the next cycle
 *   --raw FILE              no JACK: write the signal to FILE as raw float32 (the unit
 *                           tests' code, made the same way) and exit
 *   --rate HZ               with --raw, the sample rate (default 48000)
 *
 * LTC frame N is the N-th frame the encoder made (from 0), counted from the first played.
 * The whole signal is made before the client activates: the process callback only copies
 * it. Port `ltc`. "ready" on stdout once active; "playing" once the code has started.
 */
#include <jack/jack.h>
#include <ltc.h>
#include <math.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static jack_port_t *port;
static float *signal_buffer;
static size_t signal_length;
static atomic_size_t position;
static atomic_int playing;
static volatile sig_atomic_t go, stop;

static int process(jack_nframes_t n, void *arg) {
    (void)arg;
    float *out = jack_port_get_buffer(port, n);
    if (!atomic_load_explicit(&playing, memory_order_relaxed)) {
        if (!go) { memset(out, 0, n * sizeof(float)); return 0; }
        atomic_store_explicit(&playing, 1, memory_order_relaxed);
    }
    size_t at = atomic_load_explicit(&position, memory_order_relaxed);
    for (jack_nframes_t i = 0; i < n; i++) out[i] = at + i < signal_length ? signal_buffer[at + i] : 0;
    atomic_store_explicit(&position, at + n, memory_order_relaxed);
    return 0;
}

static void on_usr1(int s) { (void)s; go = 1; }
static void on_term(int s) { (void)s; stop = 1; }

static int parse_label(const char *text, SMPTETimecode *t) {
    int h, m, s, f;
    if (sscanf(text, "%d:%d:%d%*[:;]%d", &h, &m, &s, &f) != 4) return -1;
    memset(t, 0, sizeof *t);
    strcpy(t->timezone, "+0000");
    t->years = 26; t->months = 1; t->days = 1;
    t->hours = h; t->mins = m; t->secs = s; t->frame = f;
    return 0;
}

static void usage(void) {
    fprintf(stderr, "usage: jackwave-ltcsource CLIENT_NAME [--fps 24|25|29.97df|30] [--start HH:MM:SS:FF] [--level DB]"
                    " [--highpass HZ] [--mute A,B] [--garble N] [--jump N,HH:MM:SS:FF] [--seconds S] [--noise] [--wait]\n");
    exit(2);
}

int main(int argc, char **argv) {
    if (argc < 2) usage();
    const char *name = argv[1];
    double fps = 25, level = -20, highpass = 0, seconds = 20;
    enum LTC_TV_STANDARD standard = LTC_TV_625_50;
    SMPTETimecode start, jump_to;
    parse_label("01:00:00:00", &start);
    long mute_from = -1, mute_to = -1, garble = -1, jump_at = -1;
    int wait_for_signal = 0, noise = 0;
    const char *raw_path = NULL;
    double raw_rate = 48000;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--wait")) { wait_for_signal = 1; continue; }
        if (!strcmp(a, "--noise")) { noise = 1; continue; }
        if (!v) usage();
        i++;
        if (!strcmp(a, "--fps")) {
            if (!strcmp(v, "24")) { fps = 24; standard = LTC_TV_FILM_24; }
            else if (!strcmp(v, "25")) { fps = 25; standard = LTC_TV_625_50; }
            else if (!strcmp(v, "29.97df")) { fps = 30000.0 / 1001.0; standard = LTC_TV_525_60; }
            else if (!strcmp(v, "30")) { fps = 30; standard = LTC_TV_1125_60; }
            else usage();
        } else if (!strcmp(a, "--start")) { if (parse_label(v, &start)) usage(); }
        else if (!strcmp(a, "--level")) level = atof(v);
        else if (!strcmp(a, "--highpass")) highpass = atof(v);
        else if (!strcmp(a, "--mute")) { if (sscanf(v, "%ld,%ld", &mute_from, &mute_to) != 2) usage(); }
        else if (!strcmp(a, "--garble")) garble = atol(v);
        else if (!strcmp(a, "--jump")) {
            const char *comma = strchr(v, ',');
            if (!comma || parse_label(comma + 1, &jump_to)) usage();
            jump_at = atol(v);
        } else if (!strcmp(a, "--seconds")) seconds = atof(v);
        else if (!strcmp(a, "--raw")) raw_path = v;
        else if (!strcmp(a, "--rate")) raw_rate = atof(v);
        else usage();
    }

    jack_client_t *client = NULL;
    double rate = raw_rate;
    if (!raw_path) {
        jack_status_t status;
        client = jack_client_open(name, JackNoStartServer, &status);
        if (!client) { fprintf(stderr, "jackwave-ltcsource: cannot open a client (status 0x%x)\n", status); return 1; }
        rate = jack_get_sample_rate(client);
    }

    /* The code, frame by frame, from libltc's encoder: unsigned 8-bit samples around 128. */
    LTCEncoder *encoder = ltc_encoder_create(rate, fps, standard, 0);
    if (!encoder) { fprintf(stderr, "jackwave-ltcsource: ltc_encoder_create failed\n"); return 1; }
    ltc_encoder_set_volume(encoder, -3.0);
    ltc_encoder_set_timecode(encoder, &start);
    long frames = (long)(seconds * fps);
    size_t capacity = (size_t)(seconds * rate) + 4 * (size_t)(rate / fps + 1);
    signal_buffer = calloc(capacity, sizeof(float));
    for (long k = 0; k < frames && signal_length < capacity; k++) {
        if (k == jump_at) ltc_encoder_set_timecode(encoder, &jump_to);
        SMPTETimecode now;
        if (k == garble) {
            ltc_encoder_get_timecode(encoder, &now);
            SMPTETimecode odd = now;
            odd.hours = (now.hours + 7) % 24;
            ltc_encoder_set_timecode(encoder, &odd);
        }
        ltc_encoder_encode_frame(encoder);
        if (k == garble) ltc_encoder_set_timecode(encoder, &now);
        ltcsnd_sample_t *bytes;
        int n = ltc_encoder_get_bufferptr(encoder, &bytes, 1);
        int silent = k >= mute_from && k <= mute_to;
        for (int i = 0; i < n && signal_length < capacity; i++)
            signal_buffer[signal_length++] = silent ? 0 : (bytes[i] - 128) / 127.0f;
        ltc_encoder_inc_timecode(encoder);
    }
    ltc_encoder_free(encoder);
    if (noise) {
        /* As long as the code would have lasted; the level is set below, as the code's is. */
        uint64_t x = 0x9E3779B97F4A7C15ull;
        for (size_t i = 0; i < signal_length; i++) {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            signal_buffer[i] = (float)((double)(x >> 11) / 9007199254740992.0 * 2 - 1);
        }
    }

    /* The recorder's high-pass: a biquad (RBJ's cookbook, Q = 1/sqrt 2), run once over it all. */
    if (highpass > 0) {
        double w = 2 * M_PI * highpass / rate, alpha = sin(w) / (2 * M_SQRT1_2), c = cos(w);
        double b0 = (1 + c) / 2, b1 = -(1 + c), b2 = (1 + c) / 2, a0 = 1 + alpha, a1 = -2 * c, a2 = 1 - alpha;
        double x1 = 0, x2 = 0, y1 = 0, y2 = 0;
        for (size_t i = 0; i < signal_length; i++) {
            double x = signal_buffer[i];
            double y = (b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2) / a0;
            x2 = x1; x1 = x; y2 = y1; y1 = y;
            signal_buffer[i] = (float)y;
        }
    }
    /* The peak at exactly --level. */
    float peak = 0;
    for (size_t i = 0; i < signal_length; i++) if (fabsf(signal_buffer[i]) > peak) peak = fabsf(signal_buffer[i]);
    float gain = peak > 0 ? (float)(pow(10, level / 20) / peak) : 0;
    for (size_t i = 0; i < signal_length; i++) signal_buffer[i] *= gain;

    if (raw_path) {
        FILE *out = fopen(raw_path, "wbx");
        if (!out) { perror(raw_path); return 1; }
        size_t wrote = fwrite(signal_buffer, sizeof(float), signal_length, out);
        return fclose(out) == 0 && wrote == signal_length ? 0 : 1;
    }
    port = jack_port_register(client, "ltc", JACK_DEFAULT_AUDIO_TYPE, JackPortIsOutput, 0);
    if (!port) { fprintf(stderr, "jackwave-ltcsource: cannot register the port\n"); return 1; }
    go = !wait_for_signal;
    signal(SIGUSR1, on_usr1);
    signal(SIGTERM, on_term);
    signal(SIGINT, on_term);
    jack_set_process_callback(client, process, NULL);
    if (jack_activate(client)) { fprintf(stderr, "jackwave-ltcsource: cannot activate\n"); return 1; }
    printf("ready\n");
    fflush(stdout);
    int said = 0;
    while (!stop) {
        if (!said && atomic_load_explicit(&playing, memory_order_relaxed)) {
            printf("playing\n");
            fflush(stdout);
            said = 1;
        }
        usleep(10000);
    }
    jack_client_close(client);
    return 0;
}
