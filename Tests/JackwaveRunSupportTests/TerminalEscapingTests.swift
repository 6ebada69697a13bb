import JackwaveRunSupport
import JackwaveVocabulary
import Testing

/// Text from outside reaches the terminal and the journal as one inert line.
@Suite("Terminal escaping")
struct TerminalEscapingTests {
    @Test("a label that would retitle the terminal and forge a line comes out as visible text on one line")
    func retitleAndNewline() {
        let label = "\u{1B}]0;x\u{07}\njackwave: error: forged"
        let out = TerminalEscaping.escape(label)
        #expect(out == "\\e]0;x\\a\\njackwave: error: forged")
        #expect(!out.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
    }

    @Test("every C0 and C1 control, DEL, the line separators and the bidirectional overrides are written out")
    func everyControl() {
        for value in Array(0..<0x20) + Array(0x7F...0x9F) + [0x2028, 0x2029, 0x202E, 0x2066, 0x2069] {
            let out = TerminalEscaping.escape("a" + String(Unicode.Scalar(UInt32(value))!) + "b")
            #expect(out.hasPrefix("a\\") && out.hasSuffix("b"), "U+\(String(value, radix: 16)): \(out)")
            #expect(out.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F }, "U+\(String(value, radix: 16))")
        }
        #expect(TerminalEscaping.escape("\u{00}\u{7F}\u{9B}\u{202E}") == "\\x00\\x7f\\u{9b}\\u{202e}")
    }

    @Test("plain text, accents and backslashes pass unchanged, so escaping twice changes nothing")
    func idempotent() {
        for text in ["take-001.wav", "été à Zürich", "C:\\path\\n", "日本語 🎙"] {
            #expect(TerminalEscaping.escape(text) == text)
        }
        let once = TerminalEscaping.escape("\u{1B}[2J\r")
        #expect(TerminalEscaping.escape(once) == once)
    }

    @Test("an excerpt of a 60 KB label is short, says the full size, and is cut on a character")
    func excerpt() {
        let label = String(repeating: "é", count: 30_720)
        let out = TerminalEscaping.excerpt(label, maximumBytes: 120)
        #expect(out == String(repeating: "é", count: 60) + "… (61440 bytes)")
        #expect(TerminalEscaping.excerpt("short") == "short")
    }
}

/// A flood of one kind of line costs two lines per interval, and the count is kept.
@Suite("Repeated lines")
struct RepeatedLinesTests {
    @Test("the first of a kind is said, the rest are counted and said as one line when the interval is over")
    func counted() {
        var lines = RepeatedLines(interval: 10)
        var said: [Phrase] = []
        for i in 0..<1000 { said += lines.post("unknown message \(i)", kind: "OSC: unknown messages", now: Double(i) * 0.001) }
        #expect(said == ["unknown message 0"])
        #expect(lines.flush(now: 5).isEmpty)
        #expect(lines.flush(now: 10.2) == ["OSC: unknown messages: 999 more like it in 10 s (not shown)"])
        #expect(lines.post("unknown message again", kind: "OSC: unknown messages", now: 11) == ["unknown message again"])
        #expect(lines.flush(now: nil).isEmpty)
    }

    @Test("kinds beyond the bound share one, so a flood of distinct kinds is bounded too")
    func boundedKinds() {
        var lines = RepeatedLines(interval: 10, maximumKinds: 4)
        var said: [Phrase] = []
        for i in 0..<100 { said += lines.post("from host \(i)", kind: "refused \(i)", now: 0) }
        #expect(said.count == 5)
        #expect(lines.flush(now: nil) == ["other lines: 95 more like it (not shown)"])
    }
}
