#ifndef JACKWAVE_CJACK_SHIM_H
#define JACKWAVE_CJACK_SHIM_H
#include <jack/jack.h>
#include <jack/types.h>
#include <jack/midiport.h>

/// Opens a JACK client without ever starting a server.
/// `jack_client_open` is variadic, which Swift cannot call; this fixes its one optional
/// argument (the server name, or NULL for the default server).
static inline jack_client_t *jackwave_client_open(const char *client_name,
                                                  const char *server_name,
                                                  jack_status_t *status) {
    jack_options_t options = JackNoStartServer;
    if (server_name != NULL) {
        return jack_client_open(client_name, (jack_options_t)(options | JackServerName),
                                status, server_name);
    }
    return jack_client_open(client_name, options, status);
}
#endif
