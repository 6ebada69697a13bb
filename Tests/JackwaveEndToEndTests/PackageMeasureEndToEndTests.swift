import Foundation
import JackwaveTestSupport
import Testing

/// `$JACKWAVE_DEB`: the package scripts/test built with scripts/package.
private let packagePath = ProcessInfo.processInfo.environment["JACKWAVE_DEB"].flatMap { $0.isEmpty ? nil : $0 }

/// `jackwave measure` from the installed package: FFTW is not linked but loaded with dlopen
/// when a measurement is analysed, so the package's dependency on libfftw3-double3 and the
/// loading are checked here, without the Swift toolchain (PackageEndToEndTests' installation
/// and runs).
@Suite("The Debian package loads FFTW, which it depends on, to analyse a measurement", .serialized,
       .enabled(if: packagePath != nil, "JACKWAVE_DEB not set: scripts/test builds the package"))
struct PackageMeasureEndToEndTests {
    @Test("the installed binary measures its direct patch exactly, and does not link FFTW")
    func measuresWithoutToolchain() throws {
        let root = try PackageEndToEndTests.install()
        let server = try ServerKind.jackd.start()
        defer { server.stop() }
        let json = temporaryDirectory() + "/measure.json"
        let run = try PackageEndToEndTests.runHidden(root: root, ["measure", "-p", "jackwave:out_1", "--quick", "--max-latency", "0.05",
                                                                  "--json", json], server: server.name)
        #expect(run.status == 0, "\(run.stderr)")
        let text = try String(contentsOfFile: json, encoding: .utf8)
        #expect(text.contains("\"latency_frames\":0.0000"), "\(text.prefix(300))")
        let ldd = try Run.tool("/usr/bin/ldd", [root + "/usr/bin/jackwave"], server: nil)
        #expect(ldd.status == 0 && !ldd.stdout.contains("libfftw3"), "\(ldd.stdout)")
        let control = try Run.tool("/usr/bin/dpkg-deb", ["-f", packagePath ?? "", "Depends"], server: nil)
        #expect(control.stdout.contains("libfftw3-double3"), "\(control.stdout)")
    }
}
