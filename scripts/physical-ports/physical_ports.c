/* physical_ports: a JACK client that stands in for a sound card on a server without one.
 *
 *   physical_ports NAME CAPTURE PLAYBACK [SERVER_PID]
 *
 * Registers CAPTURE output ports NAME:capture_1.. and PLAYBACK input ports
 * NAME:playback_1.., all flagged physical and terminal, as jackd's dummy backend names
 * its own; the capture ports carry silence, as the dummy backend's do. Prints "ready"
 * once active, and runs until SIGINT or SIGTERM, or until process SERVER_PID is gone
 * (PipeWire's libjack does not tell a client that the server died).
 *
 * Why a client: a headless PipeWire without a session manager has no device, so no port
 * is physical and a default connection finds nothing. PipeWire's libjack passes a port's
 * physical flag on to every other client; PipeWire's own test-source node (audiotestsrc)
 * stalls the whole graph after an xrun at small quanta, which a plain client does not. */
#include <jack/jack.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_PORTS 1024

static jack_port_t *capture[MAX_PORTS];
static int captures;
static volatile sig_atomic_t stop;

static void on_signal(int sig) { (void)sig; stop = 1; }

/* Silence on every capture port: no allocation, lock or system call. */
static int process(jack_nframes_t frames, void *arg) {
    (void)arg;
    for (int i = 0; i < captures; i++) {
        memset(jack_port_get_buffer(capture[i], frames), 0, frames * sizeof(jack_default_audio_sample_t));
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 4 && argc != 5) {
        fprintf(stderr, "usage: physical_ports NAME CAPTURE PLAYBACK [SERVER_PID]\n");
        return 2;
    }
    pid_t server = argc == 5 ? (pid_t)atoi(argv[4]) : 0;
    captures = atoi(argv[2]);
    int playbacks = atoi(argv[3]);
    if (captures < 0 || captures > MAX_PORTS || playbacks < 0 || playbacks > MAX_PORTS) {
        fprintf(stderr, "physical_ports: at most %d ports each way\n", MAX_PORTS);
        return 2;
    }
    jack_status_t status;
    jack_client_t *client = jack_client_open(argv[1], JackNoStartServer | JackUseExactName, &status);
    if (!client) {
        fprintf(stderr, "physical_ports: cannot open client %s (status 0x%x)\n", argv[1], (unsigned)status);
        return 1;
    }
    char name[64];
    unsigned long flags = JackPortIsPhysical | JackPortIsTerminal;
    for (int i = 0; i < captures; i++) {
        snprintf(name, sizeof name, "capture_%d", i + 1);
        capture[i] = jack_port_register(client, name, JACK_DEFAULT_AUDIO_TYPE, JackPortIsOutput | flags, 0);
        if (!capture[i]) { fprintf(stderr, "physical_ports: cannot register %s\n", name); return 1; }
    }
    for (int i = 0; i < playbacks; i++) {
        snprintf(name, sizeof name, "playback_%d", i + 1);
        if (!jack_port_register(client, name, JACK_DEFAULT_AUDIO_TYPE, JackPortIsInput | flags, 0)) {
            fprintf(stderr, "physical_ports: cannot register %s\n", name);
            return 1;
        }
    }
    jack_set_process_callback(client, process, NULL);
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    if (jack_activate(client)) { fprintf(stderr, "physical_ports: cannot activate\n"); return 1; }
    printf("ready\n");
    fflush(stdout);
    while (!stop && (server <= 0 || kill(server, 0) == 0)) usleep(50000);
    jack_deactivate(client);
    jack_client_close(client);
    return 0;
}
