#ifndef JACKWAVE_PORTSMF_READER_H
#define JACKWAVE_PORTSMF_READER_H

// A Standard MIDI File read through portSMF, behind a C API that Swift can call: the notes,
// the tracks' names and the file's length, all in seconds through the file's own tempo map.
// Nothing here aborts or throws: every failure is a status (and a line saying where).

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Why a file was not read.
typedef enum {
    JACKWAVE_SMF_OK = 0,
    /// The path cannot be opened or read, or is not a regular file (errno in the detail).
    JACKWAVE_SMF_UNREADABLE = 1,
    /// The file is larger than `JACKWAVE_SMF_MAX_BYTES`.
    JACKWAVE_SMF_TOO_LARGE = 2,
    /// Not a Standard MIDI File, or a damaged or truncated one (the detail says where).
    JACKWAVE_SMF_MALFORMED = 3,
    /// A valid file of a kind not drawn: format 2 (independent sequences), or more tempo
    /// events than `JACKWAVE_SMF_MAX_TEMPOS`.
    JACKWAVE_SMF_UNSUPPORTED = 4,
    /// More notes than `JACKWAVE_SMF_MAX_NOTES`.
    JACKWAVE_SMF_TOO_MANY_NOTES = 5,
    /// Memory ran out, or portSMF failed in a way it does not explain.
    JACKWAVE_SMF_FAILED = 6,
} jackwave_smf_status;

/// The largest file read: 64 MiB, hours of dense playing; the whole file is held in memory
/// twice (as read and as portSMF's events), so the bound is what keeps that affordable.
#define JACKWAVE_SMF_MAX_BYTES 67108864 // 64 MiB
/// The most notes read: more than a picture can show apart, and each costs portSMF ~100 bytes.
#define JACKWAVE_SMF_MAX_NOTES 4000000
/// The most tempo events read: portSMF adds each to its tempo map by a search from the map's
/// start, so reading m of them costs m² steps (10,000 take 0.17 s of CPU, 50,000 take 4.6 s).
/// A file with more is of a kind not drawn (`JACKWAVE_SMF_UNSUPPORTED`).
#define JACKWAVE_SMF_MAX_TEMPOS 10000

/// One note: where it is in the file and when it sounds.
typedef struct {
    /// The track (MTrk chunk) it is in, 0 for the first.
    int32_t track;
    /// MIDI channel 0…15, pitch (key) 0…127, note-on velocity 1…127.
    uint8_t channel, pitch, velocity;
    /// Seconds from the start of the file; a note still sounding at its track's end lasts
    /// to that end.
    double start, duration;
} jackwave_smf_note;

/// A file that was read; its contents stay valid until `jackwave_smf_close`.
typedef struct jackwave_smf jackwave_smf;

/// Reads the file at `path`. On `JACKWAVE_SMF_OK` `*file` is the file (close it); otherwise
/// `*file` is NULL and `detail` (at most `detail_size` bytes, NUL-terminated) says why.
jackwave_smf_status jackwave_smf_open(const char *path, jackwave_smf **file, char *detail, size_t detail_size);

/// Frees everything `jackwave_smf_open` made. NULL is ignored.
void jackwave_smf_close(jackwave_smf *file);

/// How many tracks the file has, notes or not (a type-1 file's conductor track counts).
int32_t jackwave_smf_track_count(const jackwave_smf *file);

/// The name of `track` (its first meta event 0x03), or NULL if it has none.
const char *jackwave_smf_track_name(const jackwave_smf *file, int32_t track);

/// The notes, ordered by track, then start.
size_t jackwave_smf_note_count(const jackwave_smf *file);
const jackwave_smf_note *jackwave_smf_notes(const jackwave_smf *file);

/// The file's length in seconds: the latest end of track.
double jackwave_smf_length(const jackwave_smf *file);

#ifdef __cplusplus
}
#endif

#endif
