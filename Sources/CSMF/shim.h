#ifndef JACKWAVE_CSMF_SHIM_H
#define JACKWAVE_CSMF_SHIM_H
#include <smf.h>
#endif
