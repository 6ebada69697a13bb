/*
 * floor_client: the CPU floor of a recorder at N channels. A JACK client that registers N
 * input ports, connects system:capture_1..N to them (as jackwave and jack_capture do), and
 * whose process callback does nothing: what any client with those ports pays to be woken
 * each cycle and to have its ports mixed by the server. scripts/bench's section `alone`
 * runs it alone on a fresh server, as it runs each recorder.
 *
 *   floor_client N SECONDS
 *
 * The server comes from $JACK_DEFAULT_SERVER. Exits 0 after SECONDS, 1 if it cannot run.
 * Build: gcc -O2 -o floor_client floor_client.c -ljack
 */
#include <jack/jack.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int process(jack_nframes_t nframes, void *arg)
{
    (void)nframes;
    (void)arg;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: floor_client N SECONDS\n");
        return 2;
    }
    int n = atoi(argv[1]);
    double seconds = atof(argv[2]);
    if (n < 1 || n > 4096 || seconds <= 0) {
        fprintf(stderr, "floor_client: N is 1 to 4096, SECONDS above 0\n");
        return 2;
    }
    jack_client_t *client = jack_client_open("floor", JackNoStartServer, NULL);
    if (!client) {
        fprintf(stderr, "floor_client: no JACK server\n");
        return 1;
    }
    jack_set_process_callback(client, process, NULL);
    for (int i = 1; i <= n; i++) {
        char name[32];
        snprintf(name, sizeof name, "in_%d", i);
        if (!jack_port_register(client, name, JACK_DEFAULT_AUDIO_TYPE, JackPortIsInput, 0)) {
            fprintf(stderr, "floor_client: cannot register %s\n", name);
            return 1;
        }
    }
    if (jack_activate(client)) {
        fprintf(stderr, "floor_client: cannot activate\n");
        return 1;
    }
    for (int i = 1; i <= n; i++) {
        char from[64], to[64];
        snprintf(from, sizeof from, "system:capture_%d", i);
        snprintf(to, sizeof to, "%s:in_%d", jack_get_client_name(client), i);
        jack_connect(client, from, to);
    }
    usleep((useconds_t)(seconds * 1e6));
    jack_deactivate(client);
    jack_client_close(client);
    return 0;
}
