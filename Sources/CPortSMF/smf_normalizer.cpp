#include "smf_normalizer.h"

#include <cstdint>
#include <cstdio>
#include <cstring>

namespace jackwave {
namespace {

/// The largest delta time a file may write (four bytes of seven bits).
constexpr uint64_t max_delta = 0x0FFFFFFF;

uint32_t be32(const unsigned char *p) { return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | p[3]; }
uint16_t be16(const unsigned char *p) { return uint16_t(p[0] << 8 | p[1]); }

void put32(std::string &s, uint32_t v) {
    for (int shift = 24; shift >= 0; shift -= 8) s.push_back(char(v >> shift & 0xff));
}

/// One output track: events at their input ticks, each after the ticks of everything
/// dropped before it (`pending`).
struct TrackWriter {
    std::string bytes;
    uint64_t pending = 0;

    void delta(uint64_t ticks) {
        unsigned char v[4];
        int n = 0;
        do { v[n++] = ticks & 0x7f; ticks >>= 7; } while (ticks);
        while (n > 1) bytes.push_back(char(v[--n] | 0x80));
        bytes.push_back(char(v[0]));
    }

    /// Writes an event of `size` bytes after the pending ticks. A wait longer than one delta
    /// holds goes out in steps, each carried by an empty text event (which portSMF keeps as
    /// an annotation and a piano roll ignores).
    void event(const unsigned char *data, size_t size) {
        static const unsigned char empty_text[] = {0xff, 0x01, 0x00};
        while (pending > max_delta) {
            delta(max_delta);
            bytes.append(reinterpret_cast<const char *>(empty_text), sizeof empty_text);
            pending -= max_delta;
        }
        delta(pending);
        pending = 0;
        bytes.append(reinterpret_cast<const char *>(data), size);
    }
};

/// The walk through one MTrk chunk's events, from `p` to `end` (offsets in the file).
struct TrackReader {
    const unsigned char *data;
    size_t p, end;
    std::string &why;

    bool byte(unsigned char &b, const char *what) {
        if (p >= end) { why = std::string("the track ends inside ") + what; return false; }
        b = data[p++];
        return true;
    }

    /// A variable-length quantity (a delta time or a length): at most four bytes.
    bool number(uint64_t &v, const char *what) {
        v = 0;
        for (int i = 0; i < 4; i++) {
            unsigned char b;
            if (!byte(b, what)) return false;
            v = v << 7 | (b & 0x7f);
            if (!(b & 0x80)) return true;
        }
        why = std::string(what) + " longer than four bytes at byte " + std::to_string(p);
        return false;
    }

    /// `length` bytes of a message's body, which must end inside the track.
    bool skip(uint64_t length, const char *what, size_t &at) {
        if (length > end - p) { why = std::string("the track ends inside ") + what; return false; }
        at = p;
        p += size_t(length);
        return true;
    }
};

jackwave_smf_status normalize_track(const unsigned char *data, size_t begin, size_t end, bool first,
                                    uint32_t smpte_tempo, NormalizedSMF &out, std::string &why) {
    TrackReader in{data, begin, end, why};
    TrackWriter w;
    bool sounding[16][128] = {};
    unsigned char running = 0;
    if (first && smpte_tempo) {
        const unsigned char tempo[] = {0xff, 0x51, 0x03, (unsigned char)(smpte_tempo >> 16),
                                       (unsigned char)(smpte_tempo >> 8), (unsigned char)smpte_tempo};
        w.event(tempo, sizeof tempo);
    }
    while (in.p < end) {
        uint64_t ticks;
        if (!in.number(ticks, "a delta time")) return JACKWAVE_SMF_MALFORMED;
        w.pending += ticks;
        size_t at = in.p;
        unsigned char status;
        if (!in.byte(status, "an event")) return JACKWAVE_SMF_MALFORMED;
        if (status < 0x80) {
            // Running status; it is kept across meta and sysex events too, as most readers do.
            if (!running) { why = "a data byte without a status byte at byte " + std::to_string(at); return JACKWAVE_SMF_MALFORMED; }
            status = running;
            in.p--;
        }
        if (status < 0xf0) {
            running = status;
            unsigned char d[2] = {0, 0};
            int count = (status & 0xf0) == 0xc0 || (status & 0xf0) == 0xd0 ? 1 : 2;
            for (int i = 0; i < count; i++) {
                if (!in.byte(d[i], "a channel message")) return JACKWAVE_SMF_MALFORMED;
                if (d[i] & 0x80) {
                    why = "a status byte inside a channel message at byte " + std::to_string(in.p - 1);
                    return JACKWAVE_SMF_MALFORMED;
                }
            }
            int kind = status & 0xf0, channel = status & 0x0f;
            if (kind == 0x90 && d[1] > 0) {
                if (++out.notes > size_t(JACKWAVE_SMF_MAX_NOTES)) {
                    why = "more than " + std::to_string(JACKWAVE_SMF_MAX_NOTES) + " notes";
                    return JACKWAVE_SMF_TOO_MANY_NOTES;
                }
                // A key sounds once: a note-on on a key already sounding ends the note before
                // it there, as a synthesizer's voice is retriggered. portSMF's reader looks for
                // a note-off's notes through every note still sounding in the track, so
                // overlapping notes on one key made plotting quadratic in them (200,000
                // repeated note-ons took minutes); now at most one note per channel and key
                // is sounding, which bounds that search at 16 × 128 notes.
                if (sounding[channel][d[0]]) {
                    const unsigned char off[] = {(unsigned char)(0x80 | channel), d[0], 0};
                    w.event(off, sizeof off);
                }
                sounding[channel][d[0]] = true;
                const unsigned char on[] = {status, d[0], d[1]};
                w.event(on, sizeof on);
            } else if ((kind == 0x80 || kind == 0x90) && sounding[channel][d[0]]) {
                sounding[channel][d[0]] = false;
                const unsigned char off[] = {(unsigned char)(0x80 | channel), d[0], 0};
                w.event(off, sizeof off);
            }
            continue;
        }
        if (status == 0xff) {
            unsigned char type;
            uint64_t length;
            size_t body;
            if (!in.byte(type, "a meta event") || !in.number(length, "a meta event's length")
                || !in.skip(length, "a meta event", body)) return JACKWAVE_SMF_MALFORMED;
            if (type == 0x2f) break;
            if (type == 0x03) {
                std::string name = {char(0xff), char(0x03)};
                TrackWriter lengthBytes;
                lengthBytes.delta(length);
                name += lengthBytes.bytes;
                name.append(reinterpret_cast<const char *>(data + body), size_t(length));
                w.event(reinterpret_cast<const unsigned char *>(name.data()), name.size());
            } else if (type == 0x51 && !smpte_tempo) {
                uint32_t tempo = length == 3 ? uint32_t(data[body]) << 16 | uint32_t(data[body + 1]) << 8 | data[body + 2] : 0;
                if (!tempo) {
                    why = "a tempo event that is not 3 bytes of a tempo above 0, at byte " + std::to_string(at);
                    return JACKWAVE_SMF_MALFORMED;
                }
                if (++out.tempos > size_t(JACKWAVE_SMF_MAX_TEMPOS)) {
                    why = "more than " + std::to_string(JACKWAVE_SMF_MAX_TEMPOS) + " tempo events";
                    return JACKWAVE_SMF_UNSUPPORTED;
                }
                const unsigned char change[] = {0xff, 0x51, 0x03, data[body], data[body + 1], data[body + 2]};
                w.event(change, sizeof change);
            }
            continue;
        }
        if (status == 0xf0 || status == 0xf7) {
            // A system-exclusive message, or an escaped one (F7): skipped whole.
            uint64_t length;
            size_t body;
            if (!in.number(length, "a system-exclusive length") || !in.skip(length, "a system-exclusive message", body))
                return JACKWAVE_SMF_MALFORMED;
            continue;
        }
        char hex[8];
        std::snprintf(hex, sizeof hex, "0x%02X", status);
        why = std::string("an unexpected byte ") + hex + " at byte " + std::to_string(at);
        return JACKWAVE_SMF_MALFORMED;
    }
    // Notes left sounding end with the track.
    for (int channel = 0; channel < 16; channel++) {
        for (int key = 0; key < 128; key++) {
            if (!sounding[channel][key]) continue;
            const unsigned char off[] = {(unsigned char)(0x80 | channel), (unsigned char)key, 0};
            w.event(off, sizeof off);
        }
    }
    const unsigned char end_of_track[] = {0xff, 0x2f, 0x00};
    w.event(end_of_track, sizeof end_of_track);
    if (w.bytes.size() > 0xffffffffu) { why = "a track too long"; return JACKWAVE_SMF_TOO_LARGE; }
    out.bytes += "MTrk";
    put32(out.bytes, uint32_t(w.bytes.size()));
    out.bytes += w.bytes;
    return JACKWAVE_SMF_OK;
}

}

jackwave_smf_status normalize_smf(const unsigned char *data, size_t size, NormalizedSMF &out, std::string &why) {
    if (size < 14 || std::memcmp(data, "MThd", 4) != 0) { why = "no MThd header"; return JACKWAVE_SMF_MALFORMED; }
    uint32_t header = be32(data + 4);
    if (header < 6 || header > size - 8) { why = "a header chunk of " + std::to_string(header) + " bytes"; return JACKWAVE_SMF_MALFORMED; }
    uint16_t format = be16(data + 8), declared = be16(data + 10), division = be16(data + 12);
    if (format == 2) { why = "format 2 (independent sequences)"; return JACKWAVE_SMF_UNSUPPORTED; }
    if (format > 2) { why = "format " + std::to_string(format); return JACKWAVE_SMF_MALFORMED; }
    if (declared == 0) { why = "no tracks"; return JACKWAVE_SMF_MALFORMED; }
    // SMPTE division (negative frames per second, ticks per frame): rewritten as ticks per
    // quarter note at one quarter note per second (per 1.001 s at 29.97 fps), where the
    // file's tempo events, which SMPTE timing ignores, are dropped.
    uint32_t smpte_tempo = 0;
    if (division & 0x8000) {
        int fps = 256 - (division >> 8), per_frame = division & 0xff;
        if ((fps != 24 && fps != 25 && fps != 29 && fps != 30) || per_frame == 0) {
            why = "an SMPTE division of " + std::to_string(fps) + " frames per second, " + std::to_string(per_frame) + " ticks each";
            return JACKWAVE_SMF_MALFORMED;
        }
        division = uint16_t((fps == 29 ? 30 : fps) * per_frame);
        smpte_tempo = fps == 29 ? 1001001 : 1000000;
    }
    if (division == 0) { why = "a division of 0 ticks per quarter note"; return JACKWAVE_SMF_MALFORMED; }

    out = NormalizedSMF();
    out.bytes = std::string("MThd", 4);
    put32(out.bytes, 6);
    const unsigned char fields[] = {0, (unsigned char)format, (unsigned char)(declared >> 8), (unsigned char)declared,
                                    (unsigned char)(division >> 8), (unsigned char)division};
    out.bytes.append(reinterpret_cast<const char *>(fields), sizeof fields);
    size_t p = 8 + header;
    while (out.tracks < declared) {
        std::string which = "track " + std::to_string(out.tracks + 1) + " of " + std::to_string(declared);
        if (size - p < 8) { why = "the file ends before " + which + " (truncated?)"; return JACKWAVE_SMF_MALFORMED; }
        uint32_t length = be32(data + p + 4);
        if (length > size - p - 8) { why = which + " is cut short (truncated?)"; return JACKWAVE_SMF_MALFORMED; }
        size_t begin = p + 8, end = begin + length;
        bool track = std::memcmp(data + p, "MTrk", 4) == 0;
        p = end;
        if (!track) continue;  // a chunk of an unknown kind, which readers are to skip
        std::string trouble;
        jackwave_smf_status s = normalize_track(data, begin, end, out.tracks == 0, smpte_tempo, out, trouble);
        if (s != JACKWAVE_SMF_OK) { why = which + ": " + trouble; return s; }
        out.tracks++;
    }
    return JACKWAVE_SMF_OK;
}

}
