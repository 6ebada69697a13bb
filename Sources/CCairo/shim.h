#ifndef JACKWAVE_CCAIRO_SHIM_H
#define JACKWAVE_CCAIRO_SHIM_H
#include <cairo/cairo.h>
#include <cairo/cairo-svg.h>
#endif
