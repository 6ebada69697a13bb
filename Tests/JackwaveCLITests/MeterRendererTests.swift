import Foundation
@testable import JackwaveCLI
import JackwaveHost
import JackwaveTestSupport
import Testing

/// A bar as plain text.
private func bar(level: Double, hold: Double = -.infinity, width: Int = 40) -> String {
    MeterRenderer.bar(level: level, hold: hold, width: width).rendered(color: false)
}

private func count(_ text: String, _ glyph: Character) -> Int { text.filter { $0 == glyph }.count }

/// Linear amplitude for a dBFS value.
private func linear(_ db: Double) -> Float { Float(pow(10, db / 20)) }

private let status = StatusSnapshot(elapsedSeconds: 12.34, recordPath: "/tmp/take.wav", fileBytes: 4_600_000,
                                    ringFill: 0.031, xruns: 2, droppedFrames: 0, toneFrequency: 1000,
                                    toneAmplitude: 0.1, tonePaused: true)

@Suite("MeterRenderer")
struct MeterRendererTests {
    @Test("−30 dBFS fills exactly half of a 40-cell bar")
    func halfBar() {
        let text = bar(level: -30)
        #expect(text.count == 40)
        #expect(count(text, "█") == 20)
        #expect(text.hasPrefix(String(repeating: "█", count: 20)))
        #expect(count(text, "·") == 20)
    }

    @Test("0 dBFS fills the whole bar and −60 dBFS or less leaves it empty")
    func fullAndEmptyBar() {
        #expect(count(bar(level: 0), "█") == 40)
        #expect(count(bar(level: -60), "·") == 40)
        #expect(count(bar(level: -.infinity), "·") == 40)
    }

    @Test("A level between cells ends in the eighth block for the remainder")
    func eighthTip() {
        // −28.5 dB: 31.5/60 × 40 = 21 cells exactly; −29.25 dB: 20.5 cells → 20 full + ▌.
        #expect(count(bar(level: -28.5), "█") == 21)
        let text = Array(bar(level: -29.25))
        #expect(text.element(at: 19) == "█" && text.element(at: 20) == "▌" && text.element(at: 21) == "·")
    }

    @Test("The hold mark sits in the cell where a bar at the held level would end")
    func holdMarkPosition() {
        let text = Array(bar(level: -60, hold: -30))
        #expect(text.firstIndex(of: "┃") == 19)
        #expect(count(String(text), "┃") == 1)
        let top = Array(bar(level: -60, hold: 0))
        #expect(top.firstIndex(of: "┃") == 39)
        #expect(!bar(level: -60, hold: -70).contains("┃"))
    }

    @Test("A clipped channel shows CLIP; an unclipped one does not")
    func clipMarkRendered() {
        var state = MeterState(channels: 2, sampleRate: 48000)
        state.feed(startFrame: 0, frameCount: 256, peaks: [Float(1.0), 0.5])
        let lines = MeterRenderer.lines(state: state, names: ["in_1", "in_2"], connections: [[], []], status: nil,
                                        width: 100, height: 30, color: false)
        #expect(lines.element(at: 0)?.contains("CLIP") == true)
        #expect(lines.element(at: 1)?.contains("CLIP") == false)
    }

    @Test("The strip slides one column left when a level enters at the right")
    func stripSlides() {
        var state = MeterState(channels: 1, sampleRate: 48000)
        for db in stride(from: -60.0, through: 0, by: 3) { state.pushStripColumn(linear(db)) }
        let before = MeterRenderer.strip(state.strip, width: 12).map { $0.rendered(color: false) }
        state.pushStripColumn(linear(-6))
        let after = MeterRenderer.strip(state.strip, width: 12).map { $0.rendered(color: false) }
        for (old, new) in zip(before, after) {
            #expect(Array(new).dropLast() == Array(old).dropFirst())
        }
        #expect(before != after)
    }

    @Test("Strip columns are mirrored about the centre line: full scale fills both halves")
    func stripSymmetric() {
        let rows = MeterRenderer.strip([1.0, 0.0], width: 2).map { $0.rendered(color: false) }
        #expect(rows.count == 2 * MeterRenderer.stripRowsPerHalf)
        #expect(rows.allSatisfy { $0.first == "█" })
        // Silence still draws the centre line: ▁ just above it, ▔ just below it.
        #expect(rows.element(at: 1)?.last == "▁" && rows.element(at: 2)?.last == "▔")
        #expect(rows.element(at: 0)?.last == " " && rows.element(at: 3)?.last == " ")
    }

    @Test("A strip with fewer columns than the width is right-aligned")
    func stripRightAligned() {
        let rows = MeterRenderer.strip([1.0], width: 5).map { $0.rendered(color: false) }
        #expect(rows.first == "    █")
    }

    @Test("With NO_COLOR the meter's lines hold no escape sequence; with colour they do")
    func noColorHasNoEscapes() {
        var state = MeterState(channels: 2, sampleRate: 48000)
        state.feed(startFrame: 0, frameCount: 2400, peaks: [Float(1.0), 0.01])
        let plain = MeterRenderer.lines(state: state, names: ["in_1", "in_2"], connections: [["system:capture_1"], []],
                                        status: status, width: 100, height: 30, color: false)
        #expect(!plain.joined().contains("\u{1B}"))
        let colored = MeterRenderer.lines(state: state, names: ["in_1", "in_2"], connections: [["system:capture_1"], []],
                                          status: status, width: 100, height: 30, color: true)
        #expect(colored.joined().contains("\u{1B}["))
    }

    @Test("NO_COLOR counts only when set to something non-empty")
    func noColorEnvironment() {
        #expect(LiveMeter.noColor(["NO_COLOR": "1"]))
        #expect(!LiveMeter.noColor(["NO_COLOR": ""]))
        #expect(!LiveMeter.noColor([:]))
    }

    @Test("Every line fits in the terminal width minus one column")
    func linesFitWidth() {
        var state = MeterState(channels: 2, sampleRate: 48000)
        for _ in 0..<200 { state.pushStripColumn(0.5) }
        for width in [20, 41, 80, 200] {
            let lines = MeterRenderer.lines(state: state, names: ["in_1", "in_2"],
                                            connections: [["a:very_long_port_name_" + String(repeating: "x", count: 100)], []],
                                            status: status, width: width, height: 30, color: false)
            #expect(lines.allSatisfy { $0.count <= width - 1 }, "width \(width)")
        }
    }

    @Test("The meter shows bars, then the strip rows, then the status line")
    func fullLayout() {
        let state = MeterState(channels: 2, sampleRate: 48000)
        let lines = MeterRenderer.lines(state: state, names: ["in_1", "in_2"], connections: [["system:capture_1"], []],
                                        status: status, width: 120, height: 40, color: false)
        #expect(lines.count == 2 + 2 * MeterRenderer.stripRowsPerHalf + 1)
        #expect(lines.element(at: 0).map { $0.hasPrefix("in_1 ") && $0.hasSuffix("system:capture_1") } == true)
        #expect(lines.element(at: 1)?.hasSuffix("(not connected)") == true)
        #expect(lines.last == "0:12.3  rec take.wav 4.6 MB  buffer 3%  xruns 2  dropped 0  tone 1000 Hz -20.0 dBFS (paused)")
    }

    @Test("dead air or clipping under way ends the status line")
    func alarmInStatus() {
        var s = status
        s.alarmStatus = "dead air 35.2 s"
        #expect(MeterRenderer.statusText(s).hasSuffix("(paused)  dead air 35.2 s"), "\(MeterRenderer.statusText(s))")
    }

    @Test("A short terminal drops the strip before any input row")
    func shortTerminal() {
        let state = MeterState(channels: 3, sampleRate: 48000)
        let lines = MeterRenderer.lines(state: state, names: ["in_1", "in_2", "in_3"], connections: [],
                                        status: status, width: 80, height: 6, color: false)
        #expect(lines.count == 4)
        #expect(lines.element(at: 2)?.hasPrefix("in_3") == true)
    }

    @Test("The numeric peak shows one decimal, -inf for silence")
    func decibelText() {
        #expect(MeterRenderer.decibelText(-12.34) == " -12.3")
        #expect(MeterRenderer.decibelText(0) == "   0.0")
        #expect(MeterRenderer.decibelText(-.infinity) == "  -inf")
        #expect(MeterRenderer.decibelText(1.26) == "  +1.3")
    }
}
