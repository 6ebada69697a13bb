#ifndef JACKWAVE_CSOXR_SHIM_H
#define JACKWAVE_CSOXR_SHIM_H
/* libsoxr: band-limited sample-rate conversion, used by the recording writer thread only.
 * Its declarations, but no link to it: jackwave loads it with dlopen when a recording asks
 * for another rate (--rate) or --version names it, so that other runs never map it and the
 * OpenMP runtime (libgomp) it pulls in. See BENCHMARKS.md, footprint. */
#include <soxr.h>
#include <dlfcn.h>
#include <stddef.h>

/// The library's name as Debian's libsoxr0 installs it (its soname).
#define JACKWAVE_SOXR_SONAME "libsoxr.so.0"

/// Every libsoxr function jackwave calls, once (a Swift call to any other fails to link).
#define JACKWAVE_SOXR_FUNCTIONS(X) \
  X(soxr_create) X(soxr_delete) X(soxr_process) X(soxr_quality_spec) X(soxr_version) X(soxr_clear)

/// The functions, one pointer each, typed by libsoxr's own prototypes (`__typeof__`).
typedef struct jackwave_soxr {
#define JACKWAVE_SOXR_FIELD(name) __typeof__(&name) _Nonnull name;
  JACKWAVE_SOXR_FUNCTIONS(JACKWAVE_SOXR_FIELD)
#undef JACKWAVE_SOXR_FIELD
} jackwave_soxr;

/// `dlopen` of libsoxr.so.0 and `dlsym` of every function in the table: NULL when all were
/// found, else `dlerror`'s message. The library stays loaded for the life of the process.
static inline const char *jackwave_soxr_load(jackwave_soxr *table) {
  void *library = dlopen(JACKWAVE_SOXR_SONAME, RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) return dlerror();
#define JACKWAVE_SOXR_LOOKUP(name) \
  table->name = (__typeof__(&name))dlsym(library, #name); \
  if (table->name == NULL) return dlerror();
  JACKWAVE_SOXR_FUNCTIONS(JACKWAVE_SOXR_LOOKUP)
#undef JACKWAVE_SOXR_LOOKUP
  return NULL;
}
#endif
