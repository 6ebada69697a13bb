#ifndef JACKWAVE_CLO_SHIM_H
#define JACKWAVE_CLO_SHIM_H
// liblo: Open Sound Control over UDP, for `--osc PORT` (remote control). Only its
// non-variadic calls are used (Swift cannot call `lo_send`).
#include <lo/lo.h>
#endif
