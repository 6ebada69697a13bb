import FoundationEssentials
import Glibc
import JackwaveHost
import JackwaveRunSupport
import JackwaveSoundFiles

/// The live meter as text: a pure function of `MeterState` (plus names, connections,
/// the status figures and the terminal size) to lines, no I/O, so it is tested as text.
///
/// Layout, top to bottom:
/// ```
/// in_1 ████████████▌·······┃·········· CLIP  -12.3 dB  system:capture_1
/// in_2 ██████████▎······················        -18.0 dB  system:capture_2
///            ▂▄▆█▇▅▃▂▁▁▂▄▆█▇▅▃▁          (waveform strip: 2 rows up…)
///            ▔▀▀██▀▀▀▔▔▔▀▀██▀▀▔          (…2 rows down)
/// 0:12.4  rec take.wav 4.6 MB  buffer 0%  xruns 0  dropped 0
/// ```
enum MeterRenderer {
    /// Strip rows above (and as many below) the centre line: 2 rows of eighth blocks give
    /// 16 steps per half, enough to read speech from pauses, in only 4 terminal rows.
    static let stripRowsPerHalf = 2
    /// Widest bar: beyond 60 cells (1 dB a cell) a longer bar adds nothing but eye travel.
    static let maximumBarWidth = 60
    /// Narrowest bar; a terminal narrower than a row just cuts the row off.
    static let minimumBarWidth = 10
    /// Columns left for the connection names before the bar takes the rest.
    static let connectionColumns = 24

    /// Bars are green below −18 dBFS (headroom), yellow up to −6, red above.
    static let yellowFromDecibels = -18.0
    static let redFromDecibels = -6.0

    static let fullBlock = "█"
    /// Left-aligned eighths ▏▎▍▌▋▊▉ (1/8 … 7/8 of a cell), for the bar's tip.
    static let leftEighths = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]
    /// Bottom-aligned eighths ▁▂▃▄▅▆▇█, for the strip above the centre line.
    static let lowerEighths = [" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
    static let emptyCell = "·"
    static let holdMark = "┃"
    static let clipMark = "CLIP"

    /// The meter's lines, printable as they are (ANSI colours only when `color`).
    /// `width`/`height` are the terminal's; no line is wider than `width - 1`, so the
    /// cursor never reaches the last column (where terminals differ), and the meter never
    /// takes more than `height - 1` rows: the strip goes first, then inputs are elided.
    static func lines(state: MeterState, names: [String], connections: [[String]], status: StatusSnapshot?,
                      width: Int, height: Int, color: Bool) -> [String] {
        styledLines(state: state, names: names, connections: connections, status: status,
                    width: width, height: height).map { $0.rendered(color: color) }
    }

    /// `lines` before colouring.
    static func styledLines(state: MeterState, names: [String], connections: [[String]], status: StatusSnapshot?,
                            width: Int, height: Int) -> [StyledLine] {
        let columns = max(1, width - 1)
        let rows = max(2, height - 1)
        let stripHeight = 2 * stripRowsPerHalf
        let loudnessHeight = state.loudness == nil ? 0 : loudnessRows
        let showStrip = state.channels.count + stripHeight + loudnessHeight + 1 <= rows
        var shownChannels = state.channels.count
        if shownChannels + loudnessHeight + 1 > rows { shownChannels = max(1, rows - 2 - loudnessHeight) }

        let nameWidth = names.map(\.count).max() ?? 0
        let fixed = nameWidth + 1 + 1 + clipMark.count + 1 + 9
        let barWidth = min(maximumBarWidth, max(minimumBarWidth, columns - fixed - 2 - connectionColumns))

        var out: [StyledLine] = []
        for c in 0..<shownChannels {
            let channel = state.channels[c]
            let name = c < names.count ? names[c] : "in_\(c + 1)"
            var line = StyledLine(name.padded(to: nameWidth) + " ")
            line.append(bar(level: channel.levelDecibels, hold: channel.displayedHold(at: state.now), width: barWidth))
            line.append(" ")
            line.append(channel.clipped ? clipMark : String(repeating: " ", count: clipMark.count),
                        channel.clipped ? .red : nil)
            line.append(" " + decibelText(channel.displayedHold(at: state.now)) + " dB  ")
            let connected = c < connections.count ? connections[c] : []
            if connected.isEmpty {
                line.append("(not connected)", .dim)
            } else {
                // Other clients' port names: text from outside, escaped as every line is.
                line.append(TerminalEscaping.escape(connected.joined(separator: ", ")))
            }
            out.append(line.truncated(to: columns))
        }
        if shownChannels < state.channels.count {
            out.append(StyledLine("… \(state.channels.count - shownChannels) more inputs", .dim).truncated(to: columns))
        }
        if let loudness = state.loudness {
            out += loudnessLines(loudness, names: names, barWidth: barWidth, columns: columns)
        }
        if showStrip { out += strip(state.strip, width: columns) }
        if let status { out.append(StyledLine(statusText(status)).truncated(to: columns)) }
        return out
    }

    /// Where `decibels` sits on the −60 … 0 dBFS scale, 0 … 1.
    static func fraction(_ decibels: Double) -> Double {
        guard decibels > MeterState.floorDecibels else { return 0 }
        return min(1, (decibels - MeterState.floorDecibels) / -MeterState.floorDecibels)
    }

    /// The bar's colour for a cell whose right edge is at `fraction` of the scale.
    static func zone(_ fraction: Double) -> StyledLine.Color {
        let db = MeterState.floorDecibels * (1 - fraction)
        return db > redFromDecibels ? .red : db > yellowFromDecibels ? .yellow : .green
    }

    /// A `width`-cell bar: full blocks up to the level, an eighth block for its tip, dots
    /// for the rest, and the hold mark in the cell where the held peak's bar would end.
    static func bar(level: Double, hold: Double, width: Int) -> StyledLine {
        let eighths = Int((fraction(level) * Double(width) * 8).rounded())
        let holdCell = fraction(hold) > 0 ? min(width - 1, max(0, Int((fraction(hold) * Double(width)).rounded(.up)) - 1)) : -1
        var line = StyledLine()
        for cell in 0..<width {
            let zoneColor = zone(Double(cell + 1) / Double(width))
            if cell == holdCell {
                line.append(holdMark, zoneColor)
                continue
            }
            let filled = eighths - 8 * cell
            if filled >= 8 {
                line.append(fullBlock, zoneColor)
            } else if filled > 0 {
                line.append(leftEighths[filled], zoneColor)
            } else {
                line.append(emptyCell, .dim)
            }
        }
        return line
    }

    /// The waveform strip: one column per entry of `columns` (newest at the right, so a new
    /// entry slides everything one column left), each drawn as a bar of the column's peak
    /// on the dB scale, mirrored above and below the centre line. Above, bottom-aligned
    /// eighth blocks give 1/8-row steps; below, the only top-aligned blocks every terminal
    /// font has are ▔ (1/8), ▀ (1/2) and █, so the lower tip is the nearest of those.
    /// Every column with data is at least 1/8 tall each way: silence draws the centre line.
    static func strip(_ columns: [Float], width: Int) -> [StyledLine] {
        let shown = columns.suffix(width)
        let half = stripRowsPerHalf
        var rows = Array(repeating: String(repeating: " ", count: width - shown.count), count: 2 * half)
        for peak in shown {
            let height = max(1, Int((fraction(MeterState.decibels(peak)) * Double(half * 8)).rounded()))
            for r in 0..<half {
                let amount = min(8, max(0, height - 8 * r))
                rows[half - 1 - r] += lowerEighths[amount]
                rows[half + r] += upperBlock(amount)
            }
        }
        return rows.map { StyledLine($0, .cyan) }
    }

    /// The top-aligned block nearest to `eighths`/8 of a cell among ▔ ▀ █.
    static func upperBlock(_ eighths: Int) -> String {
        switch eighths {
        case ...0: " "
        case 1...2: "▔"
        case 3...5: "▀"
        default: "█"
        }
    }

    /// dBFS with one decimal, right-aligned in 6 columns (`-12.3`, `  0.0`, `+1.2`, ` -inf`).
    static func decibelText(_ db: Double) -> String {
        let text: String
        if db == -.infinity || db < -999 {
            text = "-inf"
        } else {
            let rounded = (db * 10).rounded() / 10
            text = (rounded > 0 ? "+" : "") + String(printf: "%.1f", rounded == 0 ? 0 : rounded)
        }
        return String(repeating: " ", count: max(0, 6 - text.count)) + text
    }

    /// The status line: elapsed time, file and size, buffer fill, xruns, dropped frames,
    /// the tone, dead air or clipping under way, and the MIDI inputs' events.
    static func statusText(_ s: StatusSnapshot) -> String {
        var parts = [elapsedText(s.elapsedSeconds)]
        if let path = s.recordPath {
            let name = TerminalEscaping.escape(FileNames.lastComponent(path))
            parts.append("rec \(name)" + (s.fileBytes.map { " " + byteText($0) } ?? ""))
        }
        if let take = s.takeStatus { parts.append(take) }
        if let fill = s.ringFill { parts.append("buffer \(Int((fill * 100).rounded()))%") }
        parts.append("xruns \(s.xruns)")
        parts.append("dropped \(s.droppedFrames)")
        if let hz = s.toneFrequency {
            var tone = "tone " + frequencyText(hz) + " Hz"
            if let amplitude = s.toneAmplitude {
                tone += " " + String(printf: "%.1f", MeterState.decibels(amplitude)) + " dBFS"
            }
            if s.tonePaused { tone += " (paused)" }
            parts.append(tone)
        }
        if let alarm = s.alarmStatus { parts.append(alarm) }
        if let midi = s.midiStatus { parts.append(midi) }
        if let timecode = s.timecodeStatus { parts.append(timecode) }
        return parts.joined(separator: "  ")
    }

    /// `m:ss.s`, or `h:mm:ss` from an hour on.
    static func elapsedText(_ seconds: Double) -> String {
        let s = max(0, seconds)
        if s >= 3600 {
            let whole = Int(s)
            return String(printf: "%d:%02d:%02d", whole / 3600, whole / 60 % 60, whole % 60)
        }
        let tenths = Int((s * 10).rounded(.down))
        return String(printf: "%d:%02d.%d", tenths / 600, tenths / 10 % 60, tenths % 10)
    }

    /// Bytes in decimal units with one decimal (`512 B`, `4.6 MB`).
    static func byteText(_ bytes: Int64) -> String {
        let units = ["B", "kB", "MB", "GB", "TB"]
        var value = Double(bytes), unit = 0
        while value >= 1000 && unit < units.count - 1 { value /= 1000; unit += 1 }
        return unit == 0 ? "\(bytes) B" : String(printf: "%.1f", value) + " " + units[unit]
    }

    /// A frequency without trailing zeros beyond two decimals (`1000`, `440.25`).
    static func frequencyText(_ hz: Double) -> String {
        hz == hz.rounded() ? String(Int(hz)) : String(printf: "%.2f", hz)
    }
}
