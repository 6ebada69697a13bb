#ifndef JACKWAVE_CFFTW_SHIM_H
#define JACKWAVE_CFFTW_SHIM_H
/* FFTW 3 (double precision) for `jackwave measure`, after the capture, never in the realtime
 * callback. Declarations only: libfftw3 is dlopened when a measurement is analysed (as cairo
 * and libsoxr; BENCHMARKS.md, footprint). Nothing includes <complex.h> before it, so that
 * fftw_complex is FFTW's own `double[2]`, which Swift reads as a pair of Doubles. */
#include <fftw3.h>
#include <dlfcn.h>
#include <stddef.h>

/// The library's name as Debian's libfftw3-double3 installs it (its soname).
#define JACKWAVE_FFTW_SONAME "libfftw3.so.3"

/// Every FFTW function jackwave calls, once (a Swift call to any other fails to link).
#define JACKWAVE_FFTW_FUNCTIONS(X) \
  X(fftw_plan_dft_r2c_1d) X(fftw_plan_dft_c2r_1d) X(fftw_execute) X(fftw_destroy_plan) \
  X(fftw_malloc) X(fftw_free)

/// The functions, one pointer each, typed by FFTW's own prototypes (`__typeof__`), and the
/// library's version string (`fftw_version`, a data symbol).
typedef struct jackwave_fftw {
#define JACKWAVE_FFTW_FIELD(name) __typeof__(&name) _Nonnull name;
  JACKWAVE_FFTW_FUNCTIONS(JACKWAVE_FFTW_FIELD)
#undef JACKWAVE_FFTW_FIELD
  const char *_Nonnull version;
} jackwave_fftw;

/// `dlopen` of libfftw3.so.3 and `dlsym` of every function in the table and of
/// `fftw_version`: NULL when all were found, else `dlerror`'s message. The library stays
/// loaded for the life of the process.
static inline const char *jackwave_fftw_load(jackwave_fftw *table) {
  void *library = dlopen(JACKWAVE_FFTW_SONAME, RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) return dlerror();
#define JACKWAVE_FFTW_LOOKUP(name) \
  table->name = (__typeof__(&name))dlsym(library, #name); \
  if (table->name == NULL) return dlerror();
  JACKWAVE_FFTW_FUNCTIONS(JACKWAVE_FFTW_LOOKUP)
#undef JACKWAVE_FFTW_LOOKUP
  table->version = (const char *)dlsym(library, "fftw_version");
  if (table->version == NULL) return dlerror();
  return NULL;
}
#endif
