#ifndef JACKWAVE_CSMF_SHIM_H
#define JACKWAVE_CSMF_SHIM_H
/* libsmf, for the tests only: jackwave-smfread reads the files jackwave writes through it,
 * a reader independent of the writer. Nothing in the jackwave binary links it: libsmf asserts
 * on files it cannot read (its own escaped events among them) and aborts the process. */
#include <smf.h>
#endif
