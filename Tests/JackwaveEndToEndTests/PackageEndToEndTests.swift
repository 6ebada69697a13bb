import Foundation
import JackwaveTestSupport
import Testing

/// `$JACKWAVE_DEB`: the package scripts/test built with scripts/package.
private let packagePath = ProcessInfo.processInfo.environment["JACKWAVE_DEB"].flatMap { $0.isEmpty ? nil : $0 }

/// The `.deb` that scripts/package builds (`$JACKWAVE_DEB`), installed with `dpkg -i` into a
/// scratch root and run with the Swift toolchain hidden from PATH and from the loader: what
/// a user without Swift gets.
///
/// The scratch root's dpkg database is a copy of this machine's, so `dpkg -i` checks the
/// package's Depends against what is really installed, without touching the machine's own
/// database. The toolchain is hidden for real: each run is in a private mount namespace
/// (`unshare -m`) where the toolchain's directory is an empty tmpfs, with a clean
/// environment (PATH=/usr/bin:/bin, no LD_LIBRARY_PATH).
@Suite("The Debian package, installed and run without the Swift toolchain", .serialized,
       .enabled(if: packagePath != nil, "JACKWAVE_DEB not set: scripts/test builds the package"))
struct PackageEndToEndTests {

    @Test("dpkg -i installs it, and its --version names the commit and the C libraries it runs with")
    func versionWithoutToolchain() throws {
        let root = try Self.install()
        let run = try Self.runHidden(root: root, ["--version"])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 5, "\(run.stdout)")
        #expect(lines.first?.hasPrefix("jackwave ") == true && lines.first?.contains("(commit ") == true, "\(run.stdout)")
        #expect(lines.dropFirst().map { $0.split(separator: " ").first.map(String.init) ?? "" }
                == ["libjack", "libsndfile", "libsoxr", "libshout"], "\(run.stdout)")
        #expect(!run.stdout.contains("(commit unknown)"), "scripts/package stamps the commit")
    }

    @Test("the installed binary records exactly 1 s from a dummy server without the Swift toolchain")
    func recordsWithoutToolchain() throws {
        let root = try Self.install()
        let server = try ServerKind.jackd.start()
        defer { server.stop() }
        let path = temporaryDirectory() + "/take.wav"
        let run = try Self.runHidden(root: root, ["--record", path, "-d", "1", "--no-meter"], server: server.name)
        #expect(run.status == 0, "\(run.stderr)")
        let recording = try Recording(path)
        #expect(recording.frames == server.sampleRate)
        #expect(recording.channels == 2)
    }

    @Test("the package puts the man page and the bash, zsh and fish completions where those look")
    func manPageAndCompletions() throws {
        let root = try Self.install()
        for file in ["usr/share/man/man1/jackwave.1.gz", "usr/share/bash-completion/completions/jackwave",
                     "usr/share/zsh/vendor-completions/_jackwave", "usr/share/fish/vendor_completions.d/jackwave.fish"] {
            #expect(FileManager.default.fileExists(atPath: root + "/" + file), "\(file)")
        }
        // Each completion script is valid in its shell (scripts/setup installs zsh and fish).
        for (shell, file) in [("bash", "bash-completion/completions/jackwave"), ("zsh", "zsh/vendor-completions/_jackwave"),
                              ("fish", "fish/vendor_completions.d/jackwave.fish")] {
            let check = try Run.tool("/usr/bin/" + shell, ["-n", root + "/usr/share/" + file], server: nil)
            #expect(check.status == 0, "\(shell): \(check.stderr)")
        }
        let man = try Run.tool("/usr/bin/man", ["--warnings", "-l", root + "/usr/share/man/man1/jackwave.1.gz"],
                               server: nil, environment: ["MANWIDTH": "100", "MANPAGER": "cat", "PAGER": "cat"])
        #expect(man.status == 0 && man.stderr.isEmpty, "\(man.stderr)")
        #expect(man.stdout.contains("EXIT STATUS") && man.stdout.contains("SEE ALSO"))
    }

    @Test("every folder of the package is drwxr-xr-x and every file 0644 or 0755, though scripts/test builds it under umask 077")
    func modesWhateverTheUmask() throws {
        guard let deb = packagePath else { throw TestFailure("JACKWAVE_DEB not set") }
        let listing = try Run.tool("/usr/bin/dpkg-deb", ["-c", deb], server: nil, timeout: 60)
        #expect(listing.status == 0, "\(listing.stderr)")
        let entries = listing.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        #expect(entries.count > 10)
        for entry in entries {
            let (mode, name) = (String(entry.first ?? ""), String(entry.last ?? ""))
            let allowed = mode.hasPrefix("d") ? ["drwxr-xr-x"] : name.hasSuffix("/bin/jackwave") ? ["-rwxr-xr-x"] : ["-rw-r--r--"]
            #expect(allowed.contains(mode), "\(mode) \(name)")
            #expect(entry.element(at: 1) == "root/root", "\(entry.element(at: 1) ?? "") \(name)")
        }
    }

    @Test("the package's desktop entry is one that session managers list: X-NSM-Capable, started as jackwave")
    func desktopEntry() throws {
        let root = try Self.install()
        let text = try String(contentsOfFile: root + "/usr/share/applications/jackwave.desktop", encoding: .utf8)
        let lines = Set(text.split(separator: "\n").map(String.init))
        #expect(lines.isSuperset(of: ["[Desktop Entry]", "Type=Application", "Exec=jackwave", "X-NSM-Capable=true", "X-NSM-Exec=jackwave"]),
                "\(text)")
    }

    @Test("the packaged unit starts the binary the package installs, passes systemd-analyze verify, and rates 2.0 or lower (OK)")
    func serviceUnit() throws {
        let root = try Self.install()
        let unit = root + "/usr/lib/systemd/system/jackwave@.service"
        let text = try String(contentsOfFile: unit, encoding: .utf8)
        let execStart = text.split(separator: "\n").filter { $0.hasPrefix("ExecStart=") }
        #expect(execStart == ["ExecStart=/usr/bin/jackwave --arguments /etc/jackwave/%i.args --no-meter"])
        #expect(FileManager.default.isExecutableFile(atPath: root + "/usr/bin/jackwave"))
        // systemd-analyze checks the command it names exists: the same unit, pointed at the
        // scratch root's binary (as scripts/install points it at its prefix), and the man page there.
        let copy = temporaryDirectory() + "/jackwave@.service"
        try text.replacingOccurrences(of: "ExecStart=/usr/bin/jackwave ", with: "ExecStart=\(root)/usr/bin/jackwave ")
            .write(toFile: copy, atomically: false, encoding: .utf8)
        let verify = try Run.tool("/usr/bin/systemd-analyze", ["verify", copy], server: nil, timeout: 60,
                                  environment: ["MANPATH": root + "/usr/share/man"])
        #expect(verify.status == 0 && verify.stderr.isEmpty, "\(verify.stderr)")
        let security = try Run.tool("/usr/bin/systemd-analyze", ["security", "--offline=true", copy], server: nil, timeout: 60)
        let overall = security.stdout.split(separator: "\n").first { $0.contains("Overall exposure level") } ?? ""
        let score = overall.firstMatch(of: #/: ([0-9.]+) ([A-Z]+)/#)
        #expect(score.flatMap { Double($0.1) }.map { $0 <= 2.0 } == true && score?.2 == "OK", "\(overall)\n\(security.stderr)")
    }

    /// `dpkg --root ROOT -i` the package; returns ROOT.
    static func install() throws -> String {
        guard let deb = packagePath else { throw TestFailure("JACKWAVE_DEB not set") }
        let root = temporaryDirectory() + "/root"
        let admin = root + "/var/lib/dpkg"
        try FileManager.default.createDirectory(atPath: admin + "/info", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: admin + "/updates", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "/var/lib/dpkg/status", toPath: admin + "/status")
        // dpkg warns about every package whose file list it does not have: stderr is noise
        // unless it fails.
        let run = try Run.tool("/usr/bin/dpkg", ["--root=" + root, "-i", deb], server: nil, timeout: 120)
        guard run.status == 0 else { throw TestFailure("dpkg -i \(deb) failed (\(run.status)): \(run.stderr.suffix(2000))") }
        return root
    }

    /// The directory of the Swift toolchain on PATH (`/opt/swift`): the `swift` found there,
    /// symbolic links resolved, less `usr/bin/swift…`.
    static func toolchainDirectory() throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for dir in path.split(separator: ":") {
            let swift = URL(fileURLWithPath: String(dir)).appendingPathComponent("swift")
            guard FileManager.default.isExecutableFile(atPath: swift.path) else { continue }
            let real = swift.resolvingSymlinksInPath()
            let bin = real.deletingLastPathComponent()
            guard bin.lastPathComponent == "bin", bin.deletingLastPathComponent().lastPathComponent == "usr" else { continue }
            return bin.deletingLastPathComponent().deletingLastPathComponent().path
        }
        throw TestFailure("no swift on PATH: cannot tell which toolchain to hide")
    }

    /// Runs the installed `jackwave` with the toolchain's directory covered by an empty tmpfs
    /// (checked empty first) and a clean environment.
    static func runHidden(root: String, _ arguments: [String], server: String? = nil) throws -> Run.Output {
        let toolchain = try toolchainDirectory()
        var environment = ["PATH=/usr/bin:/bin"]
        if let server { environment += ["JACK_DEFAULT_SERVER=" + server, "JACK_NO_START_SERVER=1", "JACK_NO_AUDIO_RESERVATION=1"] }
        let script = #"mount -t tmpfs jackwave-no-toolchain "$1" && [ -z "$(ls -A "$1")" ] && shift && exec "$@""#
        return try Run.tool("/usr/bin/unshare", ["-m", "/bin/sh", "-c", script, "sh", toolchain,
                                                 "/usr/bin/env", "-i"] + environment + [root + "/usr/bin/jackwave"] + arguments,
                            server: nil, timeout: 60)
    }
}
