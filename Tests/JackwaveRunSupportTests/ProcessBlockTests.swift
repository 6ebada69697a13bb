@testable import JackwaveRunSupport
import Testing

/// What `ProcessBlock.maskURLPasswords` masks in an argument: the password of a URL, and
/// nothing else. (That the bytes leave `/proc/PID/environ` and `cmdline` is shown end to end:
/// StationEndToEndTests.)
@Suite("Secrets in the process's arguments")
struct ProcessBlockTests {
    /// The bytes of `argument` that would be masked, as text; nil when none.
    func masked(_ argument: String) -> String? {
        var bytes = Array(argument.utf8)
        return bytes.withUnsafeMutableBufferPointer { buffer in
            ProcessBlock.urlPassword(in: buffer).map { String(decoding: buffer[$0], as: UTF8.self) }
        }
    }

    @Test("the password of a URL's user information is masked, whatever it holds", arguments: [
        ("icecast://source:hackme@127.0.0.1:8000/live.ogg", "hackme"),
        ("icecasts://source:p%40ss:w@radio.example:8443/a.opus", "p%40ss:w"),
        ("icecast://:only@host/m.mp3", "only"),
    ])
    func passwordMasked(argument: String, password: String) {
        #expect(masked(argument) == password)
    }

    @Test("an argument without a password in a URL's user information is left alone", arguments: [
        "icecast://source@127.0.0.1:8000/live.ogg", "icecast://127.0.0.1:8000/a:b@c.ogg", "icecast://source:@host/m.ogg",
        "--record", "take.wav", "a:b@c",
    ])
    func othersLeftAlone(argument: String) {
        #expect(masked(argument) == nil)
    }
}
