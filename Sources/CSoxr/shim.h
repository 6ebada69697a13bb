#ifndef JACKWAVE_CSOXR_SHIM_H
#define JACKWAVE_CSOXR_SHIM_H
/* libsoxr: band-limited sample-rate conversion, used by the recording writer thread only. */
#include <soxr.h>
#endif
