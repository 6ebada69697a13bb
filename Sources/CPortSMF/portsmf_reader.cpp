#include "portsmf_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <new>
#include <sstream>
#include <string>
#include <vector>

// allegro.h uses memcpy without including <cstring>, so it comes after the C++ headers.
#include <allegro.h>

#include "smf_normalizer.h"

/// What Swift reads: copies of portSMF's values, so that the sequence is freed at once.
struct jackwave_smf {
    std::vector<jackwave_smf_note> notes;
    std::vector<std::string> names;
    std::vector<bool> named;
    double length = 0;
};

namespace {

jackwave_smf_status fail(jackwave_smf_status status, const std::string &why, char *detail, size_t size) {
    if (detail && size) std::snprintf(detail, size, "%s", why.c_str());
    return status;
}

/// The whole file, read on a descriptor of its own, refused before reading if too large.
/// Opened without blocking, so that a FIFO is refused at once rather than waited on.
jackwave_smf_status slurp(const char *path, std::string &bytes, std::string &why) {
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) { why = std::strerror(errno); return JACKWAVE_SMF_UNREADABLE; }
    struct stat info;
    jackwave_smf_status status = JACKWAVE_SMF_OK;
    if (fstat(fd, &info) != 0) {
        why = std::strerror(errno);
        status = JACKWAVE_SMF_UNREADABLE;
    } else if (!S_ISREG(info.st_mode)) {
        why = "not a regular file";
        status = JACKWAVE_SMF_UNREADABLE;
    } else if (uint64_t(info.st_size) > uint64_t(JACKWAVE_SMF_MAX_BYTES)) {
        why = std::to_string(info.st_size) + " bytes";
        status = JACKWAVE_SMF_TOO_LARGE;
    } else {
        bytes.resize(size_t(info.st_size));
        size_t done = 0;
        // A file that grows while it is read is cut at the size it had; one that shrinks
        // ends where it ends (and is then judged truncated, or not, by what it holds).
        while (done < bytes.size()) {
            ssize_t n = read(fd, &bytes[done], bytes.size() - done);
            if (n < 0 && errno == EINTR) continue;
            if (n < 0) { why = std::strerror(errno); status = JACKWAVE_SMF_UNREADABLE; break; }
            if (n == 0) break;
            done += size_t(n);
        }
        bytes.resize(done);
    }
    close(fd);
    return status;
}

/// The time in seconds of `beat` through `map`, as portSMF's `beat_to_time` reckons it
/// (straight between the map's points, then on at its last tempo), but found by halving:
/// portSMF looks from the map's start for every event, which made a file of many tempo
/// changes and many notes quadratic to read (`seq.convert_to_seconds`).
double seconds_at(Alg_time_map &map, double beat) {
    Alg_beats &points = map.beats;
    if (beat <= 0 || points.len < 1) return beat <= 0 ? 0 : beat * 60.0 / ALG_DEFAULT_BPM;
    // The first point at or after `beat`.
    long low = 0, high = points.len;
    while (low < high) {
        long middle = low + (high - low) / 2;
        if (points.beats[middle].beat < beat) low = middle + 1; else high = middle;
    }
    if (low == 0) return points.beats[0].time;
    const Alg_beat *a, *b;
    if (low < points.len) {
        a = &points.beats[low - 1];
        b = &points.beats[low];
    } else if (map.last_tempo_flag) {
        const Alg_beat &last = points.beats[points.len - 1];
        return last.time + (beat - last.beat) / map.last_tempo;
    } else if (points.len == 1) {
        return beat * 60.0 / ALG_DEFAULT_BPM;
    } else {
        a = &points.beats[points.len - 2];
        b = &points.beats[points.len - 1];
    }
    return a->time + (beat - a->beat) * (b->time - a->time) / (b->beat - a->beat);
}

/// portSMF's reading of checked bytes, into `file`.
jackwave_smf_status parse(const std::string &bytes, jackwave_smf &file, std::string &why) {
    std::istringstream in(bytes);
    Alg_seq seq(in, true);
    if (seq.get_read_error() != alg_no_error) {
        why = "portSMF cannot parse it";
        return JACKWAVE_SMF_MALFORMED;
    }
    // Read in beats, each time found in the map here (`seconds_at`).
    Alg_time_map &map = *seq.get_time_map();
    file.length = seconds_at(map, seq.get_beat_dur());
    int tracks = seq.tracks();
    file.names.assign(size_t(tracks), std::string());
    file.named.assign(size_t(tracks), false);
    for (int t = 0; t < tracks; t++) {
        Alg_track &track = *seq.track(t);
        for (int i = 0; i < track.length(); i++) {
            Alg_event_ptr e = track[i];
            if (e->is_note()) {
                Alg_note_ptr n = static_cast<Alg_note_ptr>(e);
                jackwave_smf_note note;
                note.track = t;
                note.channel = uint8_t(n->chan & 0x0f);
                note.pitch = uint8_t(n->get_identifier() & 0x7f);
                note.velocity = uint8_t(int(n->loud) & 0x7f);
                note.start = seconds_at(map, n->time);
                note.duration = seconds_at(map, n->time + n->dur) - note.start;
                file.notes.push_back(note);
            } else if (!file.named[size_t(t)] && e->is_update() && e->get_update_type() == 's') {
                // portSMF names the first track's 0x03 event "seqnames", the others' "tracknames".
                const char *attribute = e->get_attribute();
                if (std::strcmp(attribute, "seqnames") == 0 || std::strcmp(attribute, "tracknames") == 0) {
                    const char *name = e->get_string_value();
                    file.names[size_t(t)] = name ? name : "";
                    file.named[size_t(t)] = true;
                }
            }
        }
    }
    return JACKWAVE_SMF_OK;
}

}

extern "C" jackwave_smf_status jackwave_smf_open(const char *path, jackwave_smf **file, char *detail, size_t detail_size) {
    *file = nullptr;
    std::string why;
    try {
        std::string bytes;
        jackwave_smf_status status = slurp(path, bytes, why);
        if (status != JACKWAVE_SMF_OK) return fail(status, why, detail, detail_size);
        jackwave::NormalizedSMF normalized;
        status = jackwave::normalize_smf(reinterpret_cast<const unsigned char *>(bytes.data()), bytes.size(), normalized, why);
        if (status != JACKWAVE_SMF_OK) return fail(status, why, detail, detail_size);
        bytes.clear();
        bytes.shrink_to_fit();
        jackwave_smf *read = new jackwave_smf();
        status = parse(normalized.bytes, *read, why);
        if (status == JACKWAVE_SMF_OK && !(read->length >= 0 && read->length < 1e12)) {
            why = "a length of " + std::to_string(read->length) + " s";
            status = JACKWAVE_SMF_MALFORMED;
        }
        if (status != JACKWAVE_SMF_OK) {
            delete read;
            return fail(status, why, detail, detail_size);
        }
        *file = read;
        return JACKWAVE_SMF_OK;
    } catch (const std::bad_alloc &) {
        return fail(JACKWAVE_SMF_FAILED, "out of memory", detail, detail_size);
    } catch (const std::exception &e) {
        return fail(JACKWAVE_SMF_FAILED, e.what(), detail, detail_size);
    } catch (...) {
        return fail(JACKWAVE_SMF_FAILED, "portSMF failed", detail, detail_size);
    }
}

extern "C" void jackwave_smf_close(jackwave_smf *file) { delete file; }

extern "C" int32_t jackwave_smf_track_count(const jackwave_smf *file) { return int32_t(file->names.size()); }

extern "C" const char *jackwave_smf_track_name(const jackwave_smf *file, int32_t track) {
    if (track < 0 || size_t(track) >= file->names.size() || !file->named[size_t(track)]) return nullptr;
    return file->names[size_t(track)].c_str();
}

extern "C" size_t jackwave_smf_note_count(const jackwave_smf *file) { return file->notes.size(); }

extern "C" const jackwave_smf_note *jackwave_smf_notes(const jackwave_smf *file) { return file->notes.data(); }

extern "C" double jackwave_smf_length(const jackwave_smf *file) { return file->length; }
