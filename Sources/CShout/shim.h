#ifndef JACKWAVE_CSHOUT_SHIM_H
#define JACKWAVE_CSHOUT_SHIM_H
/* libshout: a source client for Icecast, for `--stream icecast://…` only.
 * Its declarations, but no link to it: jackwave loads it with dlopen when a run streams, so
 * that other runs never map it and what it pulls in (OpenSSL, Theora, Speex, cairo). */
#include <shout/shout.h>
#include <dlfcn.h>
#include <stddef.h>

/// The library's name as Debian's libshout3 installs it (its soname).
#define JACKWAVE_SHOUT_SONAME "libshout.so.3"

/// Every libshout function jackwave calls, once (a Swift call to any other fails to link).
#define JACKWAVE_SHOUT_FUNCTIONS(X) \
  X(shout_init) X(shout_version) X(shout_new) X(shout_free) X(shout_get_error) X(shout_get_errno) \
  X(shout_get_connected) X(shout_set_host) X(shout_set_port) X(shout_set_agent) X(shout_set_tls) \
  X(shout_set_user) X(shout_set_password) X(shout_set_mount) X(shout_set_meta) \
  X(shout_set_content_format) X(shout_set_protocol) X(shout_set_nonblocking) X(shout_open) \
  X(shout_close) X(shout_send) X(shout_queuelen) X(shout_set_ca_file)

/// The functions, one pointer each, typed by libshout's own prototypes (`__typeof__`).
typedef struct jackwave_shout {
#define JACKWAVE_SHOUT_FIELD(name) __typeof__(&name) _Nonnull name;
  JACKWAVE_SHOUT_FUNCTIONS(JACKWAVE_SHOUT_FIELD)
#undef JACKWAVE_SHOUT_FIELD
} jackwave_shout;

/// `dlopen` of libshout.so.3 and `dlsym` of every function in the table: NULL when all were
/// found, else `dlerror`'s message. The library stays loaded for the life of the process.
static inline const char *jackwave_shout_load(jackwave_shout *table) {
  void *library = dlopen(JACKWAVE_SHOUT_SONAME, RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) return dlerror();
#define JACKWAVE_SHOUT_LOOKUP(name) \
  table->name = (__typeof__(&name))dlsym(library, #name); \
  if (table->name == NULL) return dlerror();
  JACKWAVE_SHOUT_FUNCTIONS(JACKWAVE_SHOUT_LOOKUP)
#undef JACKWAVE_SHOUT_LOOKUP
  return NULL;
}
#endif
