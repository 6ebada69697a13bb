import Foundation
import JackwaveRunSupport
import JackwaveSoundFiles
import JackwaveStreaming
import JackwaveTestSupport
import Testing

/// `--stream icecast://…` read into a plain value, its password found, and the retries'
/// schedule: no server needed.
@Suite("Stream target")
struct StreamTargetTests {
    @Test("a full URL gives user, host, port, mount and codec; the password is kept apart and never shown")
    func full() throws {
        let t = try StreamTarget.parse("icecast://dj:s%40cret@radio.example.org:8443/live/main.opus")
        #expect(t.user == "dj" && t.host == "radio.example.org" && t.port == 8443 && t.mount == "/live/main.opus")
        #expect(t.codec == .opus && t.codec.format.name == "opus")
        #expect(t.passwordInURL == "s@cret")
        #expect(t.display == "icecast://dj@radio.example.org:8443/live/main.opus")
    }

    @Test("the user defaults to source and the port to 8000; an IPv6 address keeps its brackets when shown")
    func defaults() throws {
        let t = try StreamTarget.parse("icecast://[::1]/a.mp3")
        #expect(t.user == "source" && t.port == 8000 && t.host == "::1" && t.codec == .mp3 && t.passwordInURL == nil)
        #expect(t.display == "icecast://source@[::1]:8000/a.mp3")
        #expect(try StreamTarget.parse("icecast://h/x.oga").codec == .vorbis)
    }

    @Test("icecasts:// is TLS, on port 8443 unless given, and shows as icecasts://")
    func tls() throws {
        let t = try StreamTarget.parse("icecasts://radio.example.org/live.ogg")
        #expect(t.tls && t.port == 8443 && t.certificateAuthorities == nil)
        #expect(t.display == "icecasts://source@radio.example.org:8443/live.ogg")
        #expect(try StreamTarget.parse("ICECASTS://h:9000/a.mp3").port == 9000)
        #expect(try !StreamTarget.parse("icecast://h/a.mp3").tls)
    }

    @Test("only a loopback address or localhost counts as this machine, where a login in clear crosses no network",
          arguments: [("127.0.0.1", true), ("127.1.2.3", true), ("localhost", true), ("[::1]", true),
                      ("192.0.2.1", false), ("127.0.0.1.example.org", false), ("[::ffff:127.0.0.1]", false), ("radio", false)])
    func loopback(host: String, expected: Bool) throws {
        #expect(try StreamTarget.parse("icecast://\(host)/a.ogg").isLoopback == expected)
    }

    @Test("what is not an Icecast URL of a known codec is refused with one line naming --stream", arguments: [
        "http://h:8000/a.ogg", "icecast://h:8000/a.wav", "icecast://h:8000/", "icecast://h:0/a.ogg", "icecast://h:70000/a.ogg",
        "icecast://h:99999999999999999999/a.ogg", "icecast://u@[::1]:99999999999999999999/a.ogg",
        "icecast:///a.ogg", "icecast://h/a.ogg?x=1", "icecast://h/a.ogg#f", "icecast://h/../a.ogg", "icecast://h/a b.ogg",
        "icecast://h/a\u{1B}[2J.ogg", "plain words", "icecast://h/" + String(repeating: "a", count: 1100) + ".ogg",
    ])
    func refused(text: String) {
        #expect(throws: StreamTargetError.self) { try StreamTarget.parse(text) }
        do throws(StreamTargetError) { _ = try StreamTarget.parse(text) } catch {
            #expect(error.message.plain.hasPrefix("‹stream›: ") && !error.message.plain.contains("\n"))
        }
    }

    @Test("random text never crashes the parser: it is refused, or gives a target whose parts are checked")
    func fuzz() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("icecast:/@[]%.-_~?#:0123456789abcdefghij ogg opus mp3\u{0}\u{7f}é")
        for _ in 0..<20000 {
            let length = Int.random(in: 0...60, using: &generator)
            var text = Bool.random(using: &generator) ? "icecast://" : ""
            for _ in 0..<length { text.append(alphabet.randomElement(using: &generator)!) }
            guard let target = try? StreamTarget.parse(text) else { continue }
            #expect(target.mount.hasPrefix("/") && !target.host.isEmpty && (1...65535).contains(target.port), "\(text)")
            #expect(target.display.unicodeScalars.allSatisfy { $0.isASCII && $0.value > 0x20 && $0.value < 0x7f }, "\(text)")
        }
    }

    @Test("the password comes from the file first, else the environment, else the URL with a warning; none is refused")
    func password() throws {
        let bare = try StreamTarget.parse("icecast://h/a.ogg")
        let inURL = try StreamTarget.parse("icecast://u:urlpass@h/a.ogg")
        let file = NSTemporaryDirectory() + "jackwave-pass-\(UUID().uuidString)"
        try "filepass\nsecond line\n".write(toFile: file, atomically: true, encoding: .utf8)
        chmod(file, 0o600)
        #expect(try StreamPassword.resolve(bare, file: file, environment: [StreamPassword.variable: "envpass"]) == ("filepass", []))
        #expect(try StreamPassword.resolve(bare, file: nil, environment: [StreamPassword.variable: "envpass"]) == ("envpass", []))
        let (password, warnings) = try StreamPassword.resolve(inURL, file: nil, environment: [:])
        #expect(password == "urlpass" && warnings.count == 1 && warnings[0].plain.contains("process list"))
        #expect(throws: StreamTargetError.self) { try StreamPassword.resolve(bare, file: nil, environment: [:]) }
        #expect(throws: StreamTargetError.self) { try StreamPassword.resolve(inURL, file: file, environment: [:]) }
        chmod(file, 0o644)
        #expect(try StreamPassword.resolve(bare, file: file, environment: [:]).warnings.first?.plain.contains("chmod 600") == true)
    }

    @Test("a password file that is empty, holds a control character, or is missing is refused", arguments: ["\n", "pa\u{7}ss\n", nil])
    func badPasswordFile(content: String?) throws {
        let file = NSTemporaryDirectory() + "jackwave-pass-\(UUID().uuidString)"
        if let content { try content.write(toFile: file, atomically: true, encoding: .utf8) }
        #expect(throws: StreamTargetError.self) { try StreamPassword.resolve(try StreamTarget.parse("icecast://h/a.ogg"), file: file, environment: [:]) }
    }

    @Test("retries wait 0.5, 1, 2 … up to 30 s; a connection that lasted starts the series again, a short one does not")
    func backoff() {
        var b = RetryBackoff()
        #expect((0..<8).map { _ in b.next() } == [0.5, 1, 2, 4, 8, 16, 30, 30])
        #expect(b.next(afterConnectionOf: 3) == 30)
        #expect(b.next(afterConnectionOf: 60) == 0.5)
        #expect(b.next() == 1)
    }

    @Test("the stream's feed takes whole regions or drops them, counted; the writer never waits")
    func feedDrops() {
        let feed = StreamFeed(channels: 2, sampleRate: 1000, writerFrames: 1)
        let capacity = 4096  // 4 s at 1000 Hz, rounded up to a power of two
        let frames = [Float](repeating: 0.5, count: 2 * 3000)
        frames.withUnsafeBufferPointer { feed.offer($0.baseAddress!, count: 3000) }
        frames.withUnsafeBufferPointer { feed.offer($0.baseAddress!, count: 3000) }  // does not fit: dropped whole
        feed.offerSilence(capacity - 3000)
        #expect(feed.droppedFramesSoFar == 3000)
        #expect(feed.offeredFramesSoFar == 3000 + 3000 + Int64(capacity - 3000))
    }
}
