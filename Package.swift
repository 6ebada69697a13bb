// swift-tools-version:6.0
import PackageDescription

/// jackwave: a realtime JACK recorder, tone generator and level meter.
///
/// Layering, from the bottom up:
/// - `CJack`, `CSndfile`, `CSoxr`, `CCairo`: thin system-library shims over Debian's C libraries;
///   `CGlibcExtras`: the glibc calls Swift's Glibc module does not declare (`fallocate`,
///   `pthread_setname_np`).
/// - `JackwaveDSP`: pure DSP and lock-free plumbing (no Foundation, no JACK); runs
///   unchanged inside the realtime callback and offline.
/// - `JackwaveHost`: the JACK client, the realtime engine, the sound-file writer thread.
/// - `JackwavePlot`: pictures of recordings and level streams (cairo).
/// - `JackwaveCLI`: argument parsing and the commands; `jackwave` is its thin executable.
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
        .systemLibrary(name: "CSoxr", path: "Sources/CSoxr", pkgConfig: "soxr",
                       providers: [.apt(["libsoxr-dev"])]),
        .systemLibrary(name: "CCairo", path: "Sources/CCairo", pkgConfig: "cairo",
                       providers: [.apt(["libcairo2-dev"])]),

        /// Two one-line C functions: disk-space reservation for recordings, thread names.
        .target(name: "CGlibcExtras"),

        .target(name: "JackwaveDSP"),
        .target(name: "JackwaveHost", dependencies: ["JackwaveDSP", "CJack", "CSndfile", "CSoxr", "CGlibcExtras"]),
        .target(name: "JackwavePlot", dependencies: ["JackwaveDSP", "JackwaveHost", "CCairo"]),
        .target(name: "JackwaveCLI", dependencies: ["JackwaveDSP", "JackwaveHost", "JackwavePlot"]),
        /// Linked with `-z now`: every C symbol is bound at start-up, so the realtime thread
        /// never enters the dynamic linker's lazy binding (and its lock) on a first call.
        .executableTarget(name: "jackwave", dependencies: ["JackwaveCLI"],
                          linkerSettings: [.unsafeFlags(["-Xlinker", "-z", "-Xlinker", "now"])]),
        /// A JACK client playing a known pattern, for the end-to-end tests (C, links libjack).
        .executableTarget(name: "jackwave-testsource", linkerSettings: [.linkedLibrary("jack")]),
        /// Drives the realtime callback's code offline and times it against memcpy.
        .executableTarget(name: "jackwave-bench", dependencies: ["JackwaveHost", "JackwaveDSP"]),

        .testTarget(name: "JackwaveDSPTests", dependencies: ["JackwaveDSP"]),
        .testTarget(name: "JackwaveCLITests", dependencies: ["JackwaveCLI", "JackwaveHost"]),
        .testTarget(name: "JackwavePlotTests", dependencies: ["JackwavePlot", "JackwaveHost"]),
        .testTarget(name: "JackwaveEndToEndTests", dependencies: ["JackwaveHost", "JackwaveDSP"]),
    ]
)
