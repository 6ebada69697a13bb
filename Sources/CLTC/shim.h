#ifndef JACKWAVE_CLTC_SHIM_H
#define JACKWAVE_CLTC_SHIM_H
#include <ltc.h>
#endif
