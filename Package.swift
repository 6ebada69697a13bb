// swift-tools-version:6.0
import PackageDescription

/// jackwave: a realtime JACK recorder, tone generator and level meter.
///
/// Modules by subject, from the bottom up (each target's line below says what it depends on
/// and why):
/// - `C*`: thin system-library shims over Debian's C libraries, one per library.
/// - `JackwaveDSP`: pure DSP and lock-free plumbing; runs unchanged in the realtime callback
///   and offline.
/// - `JackwaveSoundFiles`: sound files (libsndfile), formats, names, bext, disk reservation.
/// - `JackwaveLevelStream`: the level-stream format (CSV, JSON Lines), written and read.
/// - `JackwaveRunSupport` (threads, events, hooks), then `JackwaveEngine` (the JACK client and
///   the realtime engine: the only module that links libjack), `JackwaveAnalysis`,
///   `JackwaveStreaming`, `JackwaveRecording` and `JackwaveUnattended`; `JackwaveHost`, the
///   session that composes them into a run. scripts/check-layout holds the graph to that.
/// - `JackwavePlot`: pictures of recordings and level streams (cairo); no JACK.
/// - `JackwaveCLI`: options, commands and the terminal; `jackwave` is its thin executable.
let package = Package(
    name: "jackwave",
    products: [
        .executable(name: "jackwave", targets: ["jackwave"]),
    ],
    targets: [
        .systemLibrary(name: "CJack", path: "Sources/CJack", pkgConfig: "jack",
                       providers: [.apt(["libjack-jackd2-dev"])]),
        .systemLibrary(name: "CSndfile", path: "Sources/CSndfile", pkgConfig: "sndfile",
                       providers: [.apt(["libsndfile1-dev"])]),
        /// libsoxr: sample-rate conversion for `--rate`, in the writer thread (never the callback).
        /// Its header only: no pkgConfig, so nothing links it; JackwaveRecording dlopens it (Soxr).
        .systemLibrary(name: "CSoxr", path: "Sources/CSoxr", providers: [.apt(["libsoxr-dev"])]),
        /// cairo's header only: no pkgConfig, so nothing links libcairo; JackwavePlot dlopens
        /// it when a plot is drawn (CairoLibrary says why).
        .systemLibrary(name: "CCairo", path: "Sources/CCairo", providers: [.apt(["libcairo2-dev"])]),
        /// libebur128: EBU R 128 / BS.1770 loudness and true peak (`jackwave loudness`).
        .systemLibrary(name: "CEbur128", path: "Sources/CEbur128", pkgConfig: "libebur128",
                       providers: [.apt(["libebur128-dev"])]),
        /// FFTW's header only: no pkgConfig, so nothing links libfftw3; JackwaveMeasure dlopens
        /// it when a measurement is analysed (FFTWLibrary says why FFTW).
        .systemLibrary(name: "CFFTW", path: "Sources/CFFTW", providers: [.apt(["libfftw3-dev"])]),
        /// liblo: Open Sound Control over UDP (`--osc`: remote control).
        .systemLibrary(name: "CLo", path: "Sources/CLo", pkgConfig: "liblo",
                       providers: [.apt(["liblo-dev"])]),
        /// libshout's header only: no pkgConfig, so nothing links it; JackwaveStreaming dlopens it
        /// when a run streams (`--stream`, IcecastConnection says why).
        .systemLibrary(name: "CShout", path: "Sources/CShout", providers: [.apt(["libshout3-dev"])]),
        /// libsmf, for the tests only: a second reader of the MIDI files jackwave writes itself
        /// (jackwave-smfread). Nothing of jackwave links it: it aborts on files it cannot read.
        .systemLibrary(name: "CSMF", path: "Sources/CSMF", pkgConfig: "smf", providers: [.apt(["libsmf-dev"])]),
        /// libltc: SMPTE linear timecode read from audio (`--ltc`, JackwaveTimecode).
        .systemLibrary(name: "CLTC", path: "Sources/CLTC", pkgConfig: "ltc", providers: [.apt(["libltc-dev"])]),
        /// portSMF (Debian's libportsmf-dev, a static C++ library) behind a small C API: reads
        /// Standard MIDI Files for `jackwave plot`, after checking every length itself.
        .target(name: "CPortSMF", cxxSettings: [.unsafeFlags(["-I/usr/include/portSMF"])], linkerSettings: [.linkedLibrary("portSMF"), .linkedLibrary("stdc++")]),
        /// Small glibc calls Swift cannot reach: disk reservation, thread names, a close-on-exec
        /// pipe, extended attributes, and the rest its header lists.
        .target(name: "CGlibcExtras"),
        /// The git commit for `--version`, from a header scripts/build-info generates.
        .target(name: "CBuildInfo"),

        /// Only code that may run in the realtime callback (scripts/check-layout holds it to
        /// that): the ring, interleaving, peaks, the tone, block records. Depends on nothing
        /// but the standard library and Synchronization: no Foundation; of C only Glibc's `mmap`
        /// (pinned memory) and `sin`/`cos` (the tone).
        .target(name: "JackwaveDSP"),
        /// The words the command line and the modules below share: `Setting`, what a user sets,
        /// and `Phrase`, a line that points at settings, which only the CLI spells as options.
        .target(name: "JackwaveVocabulary"),
        /// libsndfile for the files, CGlibcExtras for `fallocate`.
        .target(name: "JackwaveSoundFiles", dependencies: ["JackwaveVocabulary", "CSndfile", "CGlibcExtras"]),
        /// Loudness through libebur128 (and jackwave's own true-peak filter); reads sound files
        /// for the offline measure. No JACK.
        .target(name: "JackwaveLoudness", dependencies: ["CEbur128", "JackwaveSoundFiles"]),
        /// The level-stream format, and the rows it holds (`LevelRow`, `LevelAggregator`): the
        /// same for the live stream and `jackwave levels`. JackwaveSoundFiles only for
        /// `CreatedFile`, the one way jackwave creates a file; JackwaveRunSupport for
        /// `BoundedWriter`, which a run's live stream leaves through (the events file too).
        .target(name: "JackwaveLevelStream", dependencies: ["JackwaveVocabulary", "JackwaveSoundFiles", "JackwaveRunSupport"]),
        /// `jackwave measure`'s signals and analysis (sweeps, deconvolution, harmonics, THD+N,
        /// crosstalk), on plain arrays; FFTs from FFTW. No JACK: the host plays and records.
        .target(name: "JackwaveMeasure", dependencies: ["CFFTW"]),
        /// What every part of a run leans on: threads, the message queue, the run's event log
        /// and the hooks it feeds, plain-text helpers. No JACK.
        .target(name: "JackwaveRunSupport", dependencies: ["JackwaveVocabulary", "JackwaveSoundFiles", "CGlibcExtras"]),
        /// The only module that links libjack: the JACK client, the realtime engine and its
        /// callback, `jackwave measure`'s engine.
        .target(name: "JackwaveEngine", dependencies: ["JackwaveVocabulary", "JackwaveRunSupport", "JackwaveDSP", "CJack", "CGlibcExtras"]),
        /// What a run learns from its audio beside the files: live loudness (JackwaveLoudness),
        /// dead-air and clipping alarms, dropouts. No JACK: `jackwave levels` uses it offline.
        .target(name: "JackwaveAnalysis", dependencies: ["JackwaveVocabulary", "JackwaveRunSupport", "JackwaveDSP", "JackwaveSoundFiles",
                                                         "JackwaveLevelStream", "JackwaveLoudness"]),
        /// The live stream to Icecast (libshout, dlopened). No JACK.
        .target(name: "JackwaveStreaming", dependencies: ["JackwaveVocabulary", "JackwaveRunSupport", "JackwaveDSP", "JackwaveSoundFiles", "CShout",
                                                          "CGlibcExtras"]),
        /// The recording: the writer, files and pieces, takes, markers, retention; libsoxr for
        /// `--rate`. The writer feeds the analysis and the stream as `FrameSink`s that the
        /// session plugs in, without depending on them. No JACK.
        .target(name: "JackwaveRecording", dependencies: ["JackwaveVocabulary", "JackwaveRunSupport", "JackwaveDSP", "JackwaveSoundFiles", "CSoxr",
                                                          "CGlibcExtras"]),
        /// MIDI beside the audio: the records the callback fills, the messages they carry, the
        /// Standard MIDI Files (written by jackwave itself) with notes chased across cuts, MIDI
        /// Machine Control. No JACK, no MIDI library.
        .target(name: "JackwaveMIDI", dependencies: ["JackwaveVocabulary", "JackwaveRunSupport", "JackwaveDSP", "JackwaveSoundFiles",
                                                     "JackwaveRecording"]),
        /// Timecode (`--ltc`): values and rates, LTC decoded through libltc on a thread of its
        /// own (the callback only moves the samples), and the files' time read from it. No JACK.
        .target(name: "JackwaveTimecode", dependencies: ["JackwaveRunSupport", "JackwaveDSP", "JackwaveRecording", "JackwaveSoundFiles",
                                                         "CLTC"]),
        /// What a run does unattended around its files: the finisher (cues, pictures drawn by
        /// what the CLI hands in, loudness reports, `--on-close`), the observer of events, OSC
        /// over liblo. No JACK, no cairo.
        .target(name: "JackwaveUnattended", dependencies: ["JackwaveVocabulary", "JackwaveRunSupport", "JackwaveAnalysis", "JackwaveRecording",
                                                           "JackwaveSoundFiles", "JackwaveLoudness", "CLo"]),
        /// A run: its validated options, the session that composes the parts above, the level
        /// stream and meters, the latency report.
        .target(name: "JackwaveHost", dependencies: ["JackwaveVocabulary", "JackwaveRunSupport", "JackwaveEngine", "JackwaveAnalysis", "JackwaveStreaming",
                                                     "JackwaveRecording", "JackwaveUnattended", "JackwaveDSP", "JackwaveSoundFiles",
                                                     "JackwaveLevelStream", "JackwaveLoudness", "JackwaveMIDI", "JackwaveTimecode",
                                                     "CGlibcExtras"]),
        /// Reads sound files and level streams, draws with cairo; never links libjack.
        /// JackwaveLoudness: `plot FILE --loudness` measures the file's loudness curves.
        .target(name: "JackwavePlot", dependencies: ["JackwaveVocabulary", "JackwaveSoundFiles", "JackwaveLevelStream", "JackwaveLoudness", "CCairo",
                                                     "CPortSMF"]),
        /// Everything a command needs: the host to run, the plot to draw, the files to check.
        /// A New Session Manager client: the announce, the open and the save, and a run's
        /// front end that answers the manager.
        .target(name: "JackwaveNSM", dependencies: ["JackwaveVocabulary", "JackwaveRunSupport", "JackwaveUnattended", "JackwaveHost"]),
        .target(name: "JackwaveCLI", dependencies: ["JackwaveVocabulary", "JackwaveDSP", "JackwaveSoundFiles", "JackwaveLevelStream",
                                                    "JackwaveRunSupport", "JackwaveEngine", "JackwaveAnalysis", "JackwaveStreaming",
                                                    "JackwaveRecording", "JackwaveUnattended", "JackwaveNSM", "JackwaveMIDI",
                                                    "JackwaveHost", "JackwavePlot", "JackwaveLoudness", "JackwaveMeasure",
                                                    "CBuildInfo"]),
        /// Linked with `-z now`: every C symbol is bound at start-up, so the realtime thread
        /// never enters the dynamic linker's lazy binding (and its lock) on a first call.
        /// With the toolchain's lld and `-z pack-relative-relocs` (DT_RELR, glibc ≥ 2.36): the
        /// ~37 000 relative relocations of the Swift metadata take 7 KiB instead of gold's
        /// 860 KiB of `.rela.dyn`, all of which the loader reads at every start (BENCHMARKS.md,
        /// footprint).
        /// `scripts/link-order.txt` (scripts/link-order writes it): the functions a recording runs, placed
        /// together at the front of the code, so that the kernel pages in a few hundred KiB of
        /// them instead of ~5 MiB of code they are scattered over. lld warns of a name it no
        /// longer finds and skips it (the list only orders; it never changes what is linked);
        /// scripts/check-link-order (in scripts/test) fails once more than a tenth are gone.
        .executableTarget(name: "jackwave", dependencies: ["JackwaveCLI"],
                          linkerSettings: [.unsafeFlags(["-Xlinker", "-z", "-Xlinker", "now", "-use-ld=lld",
                                                         "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                                                         "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/scripts/link-order.txt"])]),
        /// A JACK client playing a known pattern, for the end-to-end tests (C, links libjack).
        .executableTarget(name: "jackwave-testsource", linkerSettings: [.linkedLibrary("jack")]),
        /// A JACK client playing LTC from libltc's encoder (level, high-pass, frames muted,
        /// garbled or re-jammed), for the timecode end-to-end tests (C, links libjack and libltc).
        .executableTarget(name: "jackwave-ltcsource", linkerSettings: [.linkedLibrary("jack"), .linkedLibrary("ltc"), .linkedLibrary("m")]),
        /// A JACK client standing for a device under test (delay, gain, biquad, polynomial,
        /// noise, leak), for the `jackwave measure` end-to-end tests (C, links libjack).
        .executableTarget(name: "jackwave-testdevice", linkerSettings: [.linkedLibrary("jack"), .linkedLibrary("m")]),
        /// Reads a MIDI file through portSMF's own reader or libsmf, one event a line, for the
        /// tests: two readers besides midicsv, each in a process of its own, so that a library
        /// that aborts (libsmf does) fails one reading, not the test runner (C++).
        .executableTarget(name: "jackwave-smfread", dependencies: ["CSMF"],
                          cxxSettings: [.unsafeFlags(["-I/usr/include/portSMF"])],
                          linkerSettings: [.linkedLibrary("portSMF"), .linkedLibrary("stdc++")]),
        /// Drives the realtime callback's code offline and times it against memcpy; also times
        /// what else a run does often enough to matter (dropout detection, MIDI file refresh).
        .executableTarget(name: "jackwave-bench", dependencies: ["JackwaveEngine", "JackwaveAnalysis", "JackwaveRunSupport",
                                                                 "JackwaveHost", "JackwaveDSP", "JackwaveMIDI", "JackwaveRecording"]),
        /// libFuzzer targets for what jackwave parses from outside (level streams, OSC,
        /// command lines, sound-file headers, MIDI events and MIDI files) and the MIDI files it
        /// writes from what comes in, one binary chosen by JACKWAVE_FUZZ_TARGET.
        /// Linked with libFuzzer always (so a plain build links it); `scripts/fuzz` builds it
        /// with `--sanitize=fuzzer`, which instruments every module it reaches, and runs it.
        .executableTarget(name: "jackwave-fuzz", dependencies: ["JackwaveVocabulary", "JackwaveCLI", "JackwaveHost", "JackwaveUnattended", "JackwaveNSM",
                                                                "JackwaveMIDI", "JackwavePlot", "JackwaveDSP",
                                                                "JackwaveRunSupport", "JackwaveLevelStream", "JackwaveSoundFiles"],
                          linkerSettings: [.unsafeFlags(["-sanitize=fuzzer"])]),

        /// What the test targets share: servers, processes, sound files read whole, sine fits,
        /// and total statistics and look-ups (a helper never traps).
        .target(name: "JackwaveTestSupport", dependencies: ["JackwaveVocabulary", "JackwaveSoundFiles", "CLTC"], path: "Tests/JackwaveTestSupport"),
        /// Unit tests, one target per module; end-to-end tests (a real JACK server) apart.
        .testTarget(name: "JackwaveDSPTests", dependencies: ["JackwaveTestSupport", "JackwaveDSP"]),
        .testTarget(name: "JackwaveVocabularyTests", dependencies: ["JackwaveVocabulary"]),
        .testTarget(name: "JackwaveSoundFilesTests", dependencies: ["JackwaveTestSupport", "JackwaveSoundFiles", "CSndfile"]),
        .testTarget(name: "JackwaveLoudnessTests", dependencies: ["JackwaveTestSupport", "JackwaveLoudness", "JackwaveSoundFiles", "JackwaveDSP"]),
        .testTarget(name: "JackwaveLevelStreamTests", dependencies: ["JackwaveTestSupport", "JackwaveLevelStream", "JackwaveDSP"]),
        .testTarget(name: "JackwaveRunSupportTests", dependencies: ["JackwaveTestSupport", "JackwaveRunSupport"]),
        .testTarget(name: "JackwaveEngineTests", dependencies: ["JackwaveTestSupport", "JackwaveEngine"]),
        .testTarget(name: "JackwaveAnalysisTests", dependencies: ["JackwaveTestSupport", "JackwaveAnalysis", "JackwaveRunSupport",
                                                                   "JackwaveSoundFiles", "JackwaveDSP", "JackwaveLoudness"]),
        .testTarget(name: "JackwaveStreamingTests", dependencies: ["JackwaveTestSupport", "JackwaveStreaming", "JackwaveRunSupport",
                                                                    "JackwaveSoundFiles", "JackwaveDSP"]),
        /// JackwaveEngine too: a recording's drops come from the realtime engine, driven offline.
        .testTarget(name: "JackwaveRecordingTests", dependencies: ["JackwaveTestSupport", "JackwaveRecording", "JackwaveEngine",
                                                                    "JackwaveRunSupport", "JackwaveSoundFiles", "JackwaveDSP"]),
        .testTarget(name: "JackwaveUnattendedTests", dependencies: ["JackwaveTestSupport", "JackwaveUnattended", "JackwaveRecording",
                                                                     "JackwaveRunSupport", "JackwaveSoundFiles", "JackwaveDSP"]),
        .testTarget(name: "JackwaveHostTests", dependencies: ["JackwaveTestSupport", "JackwaveHost", "JackwaveRunSupport", "JackwaveEngine",
                                                               "JackwaveAnalysis", "JackwaveStreaming", "JackwaveUnattended",
                                                               "JackwaveSoundFiles", "JackwaveDSP", "JackwaveLevelStream",
                                                               "JackwaveLoudness"]),
        .testTarget(name: "JackwaveMeasureTests", dependencies: ["JackwaveTestSupport", "JackwaveMeasure"]),
        .testTarget(name: "JackwaveMIDITests", dependencies: ["JackwaveTestSupport", "JackwaveMIDI", "JackwaveDSP", "JackwaveRecording",
                                                              "JackwaveRunSupport"]),
        .testTarget(name: "JackwaveTimecodeTests", dependencies: ["JackwaveTestSupport", "JackwaveTimecode"]),
        .testTarget(name: "JackwaveNSMTests", dependencies: ["JackwaveNSM", "JackwaveUnattended"]),
        .testTarget(name: "JackwavePlotTests", dependencies: ["JackwaveTestSupport", "JackwavePlot", "JackwaveSoundFiles", "JackwaveLevelStream"]),
        .testTarget(name: "JackwaveCLITests", dependencies: ["JackwaveTestSupport", "JackwaveCLI", "JackwaveSoundFiles", "JackwaveLevelStream",
                                                             "JackwaveRunSupport", "JackwaveAnalysis", "JackwaveStreaming",
                                                             "JackwaveRecording", "JackwaveUnattended", "JackwaveEngine",
                                                             "JackwaveHost", "JackwaveLoudness"]),
        /// JackwaveUnattended for its OSC server only: the peer that asks `/jackwave/status` and reads the reply.
        .testTarget(name: "JackwaveEndToEndTests", dependencies: ["JackwaveTestSupport", "JackwaveSoundFiles", "JackwaveDSP", "JackwaveHost",
                                                                   "JackwaveUnattended"]),
    ]
)
