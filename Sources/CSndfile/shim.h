#ifndef JACKWAVE_CSNDFILE_SHIM_H
#define JACKWAVE_CSNDFILE_SHIM_H
#include <sndfile.h>
#endif
