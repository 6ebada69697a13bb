import JackwaveHost
import JackwaveRunSupport
import JackwaveStreaming
import JackwaveTestSupport
import JackwaveVocabulary
import Testing

/// `--stream`'s checks before a run: what is said of a login in clear, and what is refused
/// as having no effect.
@Suite("Stream options")
struct StreamOptionsTests {
    @Test("a login to another machine without TLS is said to travel in clear; to this machine, or over TLS, it is not",
          arguments: [("icecast://192.0.2.1/a.ogg", true), ("icecast://127.0.0.1/a.ogg", false),
                      ("icecasts://192.0.2.1/a.ogg", false)])
    func clearLoginWarned(url: String, warned: Bool) throws {
        var options = RunOptions()
        options.station.stream = try StreamTarget.parse(url)
        let warnings = try options.checkStream(environment: [StreamPassword.variable: "secret"]).map(\.plain)
        #expect(warnings.contains { $0.contains("in clear") } == warned, "\(warnings)")
        #expect(!warnings.joined().contains("secret"))
    }

    @Test("--stream-ca on icecast://, which has no TLS, is refused as having no effect")
    func authoritiesWithoutTLS() throws {
        var options = RunOptions()
        options.station.stream = try StreamTarget.parse("icecast://127.0.0.1/a.ogg")
        options.station.streamCertificateAuthorities = "/etc/hostname"
        #expect(throws: UsageError("\(setting: .streamCertificateAuthorities) has no effect on icecast://, which has no TLS: use icecasts://")) {
            try options.checkStream(environment: [StreamPassword.variable: "secret"])
        }
    }
}
