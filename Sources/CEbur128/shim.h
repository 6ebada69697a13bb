#ifndef JACKWAVE_CEBUR128_SHIM_H
#define JACKWAVE_CEBUR128_SHIM_H
#include <ebur128.h>
#endif
