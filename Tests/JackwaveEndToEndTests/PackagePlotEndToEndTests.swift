import Foundation
import JackwaveTestSupport
import Testing

/// `$JACKWAVE_DEB`: the package scripts/test built with scripts/package.
private let packagePath = ProcessInfo.processInfo.environment["JACKWAVE_DEB"].flatMap { $0.isEmpty ? nil : $0 }

/// `jackwave plot` and `--rate` from the installed package: cairo and libsoxr are not linked
/// but loaded with dlopen when needed, so the package's dependencies on libcairo2 and
/// libsoxr0 and the loading are checked here, without the Swift toolchain
/// (PackageEndToEndTests' installation and runs).
@Suite("The Debian package loads cairo and libsoxr, which it depends on, when they are needed", .serialized,
       .enabled(if: packagePath != nil, "JACKWAVE_DEB not set: scripts/test builds the package"))
struct PackagePlotEndToEndTests {

    @Test("the installed binary plots its own recording to a PNG, and links neither cairo nor libsoxr")
    func plotsWithoutToolchain() throws {
        let (root, take) = try Self.installAndRecord([])

        let picture = temporaryDirectory() + "/take.png"
        let plot = try PackageEndToEndTests.runHidden(root: root, ["plot", take, "-o", picture])
        #expect(plot.status == 0, "\(plot.stderr)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: picture))
        #expect(bytes.count > 1000)
        #expect(bytes.prefix(8) == Data([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), "not a PNG")

        let ldd = try Run.tool("/usr/bin/ldd", [root + "/usr/bin/jackwave"], server: nil)
        #expect(ldd.status == 0 && !ldd.stdout.contains("libcairo") && !ldd.stdout.contains("libsoxr"), "\(ldd.stdout)")
        let control = try Run.tool("/usr/bin/dpkg-deb", ["-f", packagePath ?? "", "Depends"], server: nil)
        #expect(control.stdout.contains("libcairo2") && control.stdout.contains("libsoxr0"), "\(control.stdout)")
    }

    @Test("the installed binary records at another file rate through the libsoxr it loads")
    func resamplesWithoutToolchain() throws {
        let (_, take) = try Self.installAndRecord(["--rate", "44100"])
        let recording = try Recording(take)
        #expect(recording.sampleRate == 44100)
        #expect(recording.frames == 44100, "\(recording.frames) frames")
    }

    /// Installs the package and records 1 s from a fresh dummy server with its `jackwave`,
    /// adding `options`; expects success. Returns the scratch root and the take's path.
    static func installAndRecord(_ options: [String]) throws -> (root: String, take: String) {
        let root = try PackageEndToEndTests.install()
        let server = try ServerKind.jackd.start()
        defer { server.stop() }
        let take = temporaryDirectory() + "/take.wav"
        let run = try PackageEndToEndTests.runHidden(root: root, ["--record", take, "-d", "1", "--no-meter"] + options,
                                                     server: server.name)
        #expect(run.status == 0, "\(run.stderr)")
        return (root, take)
    }
}
