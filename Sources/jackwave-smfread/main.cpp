/*
 * jackwave-smfread: a Standard MIDI File read by another library than jackwave's own writer,
 * for the tests: every event, one a line, at the tick that library read.
 *
 *   jackwave-smfread portsmf|libsmf FILE
 *
 * Prints `header FORMAT TRACKS DIVISION`, then `TRACK TICK HEX` for each event, tracks
 * numbered from 0 (a type-1 file's conductor), TICK the sum of the delta times the library
 * read (summed here in 64 bits: libsmf 1.3 keeps absolute times in an int, which wraps
 * after 2^31 ticks, 3.1 hours at 192 kHz), HEX the event's bytes: a channel message with its
 * status, a SysEx from F0 to F7, an escaped (F7) message's bytes alone, a meta event as FF,
 * its type and its data (the length left out).
 *
 * Exit 0 when the file was read, 1 when the library refused it (its reason on stderr), 2
 * for a bad command line. libsmf asserts on what it cannot read (an escaped event, for
 * one): then this process dies of SIGABRT, and only this process, which is why the tests
 * read through it rather than load libsmf themselves.
 */
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <mfmidi.h>
#include <smf.h>

namespace {

void line(int track, long long tick, const std::vector<unsigned char> &bytes) {
    std::printf("%d %lld ", track, tick);
    for (unsigned char b : bytes) std::printf("%02X", b);
    std::printf("\n");
}

/// portSMF's own reader (the layer under its Alg_seq, which `jackwave plot` reads through):
/// every callback it makes, as an event.
class PortSMFReader : public Midifile_reader {
public:
    explicit PortSMFReader(FILE *file) : file(file) {}
    std::string error;
    int track = -1;

protected:
    FILE *file;
    void *Mf_malloc(size_t size) override { return std::malloc(size); }
    void Mf_free(void *obj, size_t) override { std::free(obj); }
    int Mf_getc() override { return std::fgetc(file); }
    void Mf_error(char *message) override { if (error.empty()) error = message; }
    void Mf_header(int format, int tracks, int division) override { std::printf("header %d %d %d\n", format, tracks, division); }
    void Mf_starttrack() override { track++; }
    void Mf_endtrack() override {}
    void Mf_eot() override { emit({0xFF, 0x2F}); }
    void Mf_chanprefix(int c) override { emit({0xFF, 0x20, (unsigned char)c}); }
    void Mf_portprefix(int p) override { emit({0xFF, 0x21, (unsigned char)p}); }
    void Mf_on(int c, int k, int v) override { emit({(unsigned char)(0x90 | c), (unsigned char)k, (unsigned char)v}); }
    void Mf_off(int c, int k, int v) override { emit({(unsigned char)(0x80 | c), (unsigned char)k, (unsigned char)v}); }
    void Mf_pressure(int c, int k, int v) override { emit({(unsigned char)(0xA0 | c), (unsigned char)k, (unsigned char)v}); }
    void Mf_controller(int c, int n, int v) override { emit({(unsigned char)(0xB0 | c), (unsigned char)n, (unsigned char)v}); }
    void Mf_pitchbend(int c, int lsb, int msb) override { emit({(unsigned char)(0xE0 | c), (unsigned char)lsb, (unsigned char)msb}); }
    void Mf_program(int c, int p) override { emit({(unsigned char)(0xC0 | c), (unsigned char)p}); }
    void Mf_chanpressure(int c, int v) override { emit({(unsigned char)(0xD0 | c), (unsigned char)v}); }
    // portSMF hands a SysEx over from its F0, an escaped message as its bytes alone.
    void Mf_sysex(int length, unsigned char *message) override { emit(std::vector<unsigned char>(message, message + length)); }
    void Mf_arbitrary(int length, unsigned char *message) override { emit(std::vector<unsigned char>(message, message + length)); }
    void Mf_metamisc(int type, int length, unsigned char *data) override { meta(type, length, data); }
    void Mf_sqspecific(int length, unsigned char *data) override { meta(0x7F, length, data); }
    void Mf_text(int type, int length, unsigned char *data) override { meta(type, length, data); }
    void Mf_seqnum(int n) override { emit({0xFF, 0x00, (unsigned char)(n >> 8), (unsigned char)n}); }
    void Mf_smpte(int h, int m, int s, int f, int ff) override {
        emit({0xFF, 0x54, (unsigned char)h, (unsigned char)m, (unsigned char)s, (unsigned char)f, (unsigned char)ff});
    }
    void Mf_timesig(int n, int d, int c, int b) override {
        emit({0xFF, 0x58, (unsigned char)n, (unsigned char)d, (unsigned char)c, (unsigned char)b});
    }
    void Mf_tempo(int t) override { emit({0xFF, 0x51, (unsigned char)(t >> 16), (unsigned char)(t >> 8), (unsigned char)t}); }
    void Mf_keysig(int s, int m) override { emit({0xFF, 0x59, (unsigned char)s, (unsigned char)m}); }

private:
    void emit(const std::vector<unsigned char> &bytes) { line(track, (long long)Mf_currtime, bytes); }
    void meta(int type, int length, unsigned char *data) {
        std::vector<unsigned char> bytes = {0xFF, (unsigned char)type};
        bytes.insert(bytes.end(), data, data + length);
        emit(bytes);
    }
};

int readWithPortSMF(const char *path) {
    FILE *file = std::fopen(path, "rb");
    if (!file) { std::perror(path); return 1; }
    PortSMFReader reader(file);
    reader.midifile();
    reader.finalize();
    std::fclose(file);
    if (!reader.error.empty()) { std::fprintf(stderr, "portSMF: %s\n", reader.error.c_str()); return 1; }
    return 0;
}

int readWithLibsmf(const char *path) {
    smf_t *smf = smf_load(path);
    if (!smf) { std::fprintf(stderr, "libsmf could not load %s\n", path); return 1; }
    std::printf("header %d %d %d\n", smf->format, smf->number_of_tracks, smf->ppqn);
    for (int t = 1; t <= smf->number_of_tracks; t++) {
        smf_track_t *track = smf_get_track_by_number(smf, t);
        long long tick = 0;
        for (int e = 1; track && e <= track->number_of_events; e++) {
            smf_event_t *event = smf_track_get_event_by_number(track, e);
            if (!event) break;
            tick += event->delta_time_pulses;
            std::vector<unsigned char> bytes(event->midi_buffer, event->midi_buffer + event->midi_buffer_length);
            // libsmf keeps a meta event whole (FF, type, length, data): the length goes, as
            // portSMF gives none.
            if (bytes.size() >= 3 && bytes[0] == 0xFF) {
                size_t at = 2;
                while (at < bytes.size() && (bytes[at] & 0x80)) at++;
                bytes.erase(bytes.begin() + 2, bytes.begin() + std::min(at + 1, bytes.size()));
            }
            line(t - 1, tick, bytes);
        }
    }
    smf_delete(smf);
    return 0;
}

}

int main(int argc, char **argv) {
    if (argc != 3 || (std::strcmp(argv[1], "portsmf") != 0 && std::strcmp(argv[1], "libsmf") != 0)) {
        std::fprintf(stderr, "usage: jackwave-smfread portsmf|libsmf FILE\n");
        return 2;
    }
    int status = std::strcmp(argv[1], "portsmf") == 0 ? readWithPortSMF(argv[2]) : readWithLibsmf(argv[2]);
    std::fflush(stdout);
    return status;
}
