#ifndef JACKWAVE_CSMF_SHIM_H
#define JACKWAVE_CSMF_SHIM_H
/* libsmf, which writes the Standard MIDI Files of `--midi` (JackwaveMIDI's MidiFileWriter), on
 * the writer thread, never in the realtime callback. Declarations only: libsmf is dlopened by
 * the first MIDI file, not linked, so that a run without MIDI never maps it and GLib, whose
 * constructors allocate before an LD_PRELOADed runtime (RealtimeSanitizer) has started.
 * Its header includes GLib's, so the few functions jackwave calls are declared here, as
 * libsmf 1.3's smf.h declares them, over opaque structures. */
#include <dlfcn.h>
#include <stddef.h>

/// The library's name as Debian's libsmf0 installs it (its soname).
#define JACKWAVE_SMF_SONAME "libsmf.so.0"

typedef struct smf_struct smf_t;
typedef struct smf_track_struct smf_track_t;
typedef struct smf_event_struct smf_event_t;

/// Every libsmf function jackwave calls, with libsmf 1.3's prototype.
typedef struct jackwave_smf {
  smf_t *_Nullable (*_Nonnull smf_new)(void);
  void (*_Nonnull smf_delete)(smf_t *_Nonnull smf);
  int (*_Nonnull smf_set_format)(smf_t *_Nonnull smf, int format);
  int (*_Nonnull smf_set_ppqn)(smf_t *_Nonnull smf, int ppqn);
  smf_track_t *_Nullable (*_Nonnull smf_track_new)(void);
  void (*_Nonnull smf_add_track)(smf_t *_Nonnull smf, smf_track_t *_Nonnull track);
  smf_event_t *_Nullable (*_Nonnull smf_event_new_from_pointer)(void *_Nonnull midi_data, int len);
  smf_event_t *_Nullable (*_Nonnull smf_event_new_textual)(int type, const char *_Nonnull text);
  void (*_Nonnull smf_track_add_event_pulses)(smf_track_t *_Nonnull track, smf_event_t *_Nonnull event, int pulses);
  int (*_Nonnull smf_track_add_eot_pulses)(smf_track_t *_Nonnull track, int pulses);
  smf_event_t *_Nullable (*_Nonnull smf_track_get_last_event)(const smf_track_t *_Nonnull track);
  int (*_Nonnull smf_event_is_eot)(const smf_event_t *_Nonnull event);
  void (*_Nonnull smf_event_remove_from_track)(smf_event_t *_Nonnull event);
  void (*_Nonnull smf_event_delete)(smf_event_t *_Nonnull event);
  int (*_Nonnull smf_save)(smf_t *_Nonnull smf, const char *_Nonnull file_name);
} jackwave_smf;

/// `dlopen` of libsmf.so.0 and `dlsym` of every function in the table: NULL when all were
/// found, else `dlerror`'s message. The library stays loaded for the life of the process.
static inline const char *_Nullable jackwave_smf_load(jackwave_smf *_Nonnull table) {
  void *library = dlopen(JACKWAVE_SMF_SONAME, RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) return dlerror();
#define JACKWAVE_SMF_LOOKUP(name) \
  *(void **)&table->name = dlsym(library, #name); \
  if (table->name == NULL) return dlerror();
  JACKWAVE_SMF_LOOKUP(smf_new) JACKWAVE_SMF_LOOKUP(smf_delete) JACKWAVE_SMF_LOOKUP(smf_set_format)
  JACKWAVE_SMF_LOOKUP(smf_set_ppqn) JACKWAVE_SMF_LOOKUP(smf_track_new) JACKWAVE_SMF_LOOKUP(smf_add_track)
  JACKWAVE_SMF_LOOKUP(smf_event_new_from_pointer) JACKWAVE_SMF_LOOKUP(smf_event_new_textual)
  JACKWAVE_SMF_LOOKUP(smf_track_add_event_pulses) JACKWAVE_SMF_LOOKUP(smf_track_add_eot_pulses)
  JACKWAVE_SMF_LOOKUP(smf_track_get_last_event) JACKWAVE_SMF_LOOKUP(smf_event_is_eot)
  JACKWAVE_SMF_LOOKUP(smf_event_remove_from_track) JACKWAVE_SMF_LOOKUP(smf_event_delete)
  JACKWAVE_SMF_LOOKUP(smf_save)
#undef JACKWAVE_SMF_LOOKUP
  return NULL;
}
#endif
