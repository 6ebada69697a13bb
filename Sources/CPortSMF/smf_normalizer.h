#ifndef JACKWAVE_SMF_NORMALIZER_H
#define JACKWAVE_SMF_NORMALIZER_H

// The bytes of a Standard MIDI File checked and rewritten into the small, plain form that
// portSMF's reader can be trusted with. That reader reads a meta event's fixed fields without
// checking its length (a short tempo or time-signature event reads past its buffer), prints
// "Midifile reader error" lines on stdout for valid things it ignores (escaped F7 messages,
// sequence numbers, unknown meta events), and stops at anything unexpected without saying
// where. So the file is walked here first, every length checked against its chunk, and only
// what a piano roll needs is passed on.

#include <cstddef>
#include <string>

#include "portsmf_reader.h"

namespace jackwave {

/// What `normalize_smf` found.
struct NormalizedSMF {
    /// A format-0/1 file holding, per track of the input (in order), its note-ons and
    /// note-offs, tempo changes and track names with full status bytes, each at its original
    /// tick; then a note-off for each note left sounding, and the end of the track.
    std::string bytes;
    /// The input's tracks (MTrk chunks), which `bytes` has as many of.
    int tracks = 0;
    /// Note-ons with a velocity (what becomes a note).
    size_t notes = 0;
    /// Tempo events passed on.
    size_t tempos = 0;
};

/// Checks and rewrites `size` bytes of a file; on anything but `JACKWAVE_SMF_OK`, `why`
/// says what is wrong in a few words.
jackwave_smf_status normalize_smf(const unsigned char *data, size_t size, NormalizedSMF &out, std::string &why);

}

#endif
