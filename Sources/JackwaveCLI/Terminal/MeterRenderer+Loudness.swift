import FoundationEssentials
import Glibc

/// The meter's loudness lines (`--loudness`), under the channels' bars:
/// ```
/// M  -21.3  S  -22.8  I  -23.0 LUFS  LRA   4.1 LU  target -23 (I +0.0)
/// M ████████████████████████········│·········   (−59 … +9 LU around the target)
/// dBTP  in_1  -3.2 (max  -1.0)  in_2  -4.0 (max  -0.4)
/// ```
/// The bar is the momentary loudness on a scale that puts the target three quarters of the
/// way along; the `│` is the target. A true-peak hold above −1 dBTP (EBU R 128's limit) is red.
extension MeterRenderer {
    /// Lines the loudness view takes.
    static let loudnessRows = 3
    /// The loudness bar spans the target −36 LU … +12 LU: speech and music sit within
    /// 20 LU under their target, and anything 12 LU over it is an error to see, not measure.
    static let loudnessBelowTarget = 36.0
    static let loudnessAboveTarget = 12.0
    static let targetMark = "│"
    /// EBU R 128's maximum permitted true peak, dBTP.
    static let truePeakLimit = -1.0

    /// The three loudness lines for a bar of `barWidth` cells, cut to `columns`.
    static func loudnessLines(_ l: MeterLoudness, names: [String], barWidth: Int, columns: Int) -> [StyledLine] {
        var figures = StyledLine("M " + lufsText(l.momentary) + "  S " + lufsText(l.shortTerm)
                                 + "  I " + lufsText(l.integrated) + " LUFS  LRA " + String(printf: "%6.1f", l.range) + " LU  target "
                                 + targetText(l.target))
        if l.integrated.isFinite {
            let off = l.integrated - l.target
            figures.append(" (I " + (off >= 0.05 ? "+" : "") + String(printf: "%.1f", abs(off) < 0.05 ? 0 : off) + ")",
                           abs(off) <= 1 ? .green : .yellow)
        }
        var barLine = StyledLine("M ")
        barLine.append(loudnessBar(l.momentary, target: l.target, width: barWidth))
        var peaks = StyledLine("dBTP")
        for (c, name) in names.enumerated() where c < l.truePeaks.count {
            peaks.append("  \(name) " + lufsText(l.truePeaks[c]) + " (max ")
            peaks.append(lufsText(l.truePeakHolds[c]), l.truePeakHolds[c] > truePeakLimit ? .red : nil)
            peaks.append(")")
        }
        return [figures, barLine, peaks].map { $0.truncated(to: columns) }
    }

    /// Where `lufs` sits on the bar's scale, 0 … 1.
    static func loudnessFraction(_ lufs: Double, target: Double) -> Double {
        guard lufs.isFinite else { return 0 }
        let low = target - loudnessBelowTarget
        return min(1, max(0, (lufs - low) / (loudnessBelowTarget + loudnessAboveTarget)))
    }

    /// A `width`-cell bar of `lufs`: full blocks up to it (green up to the target, yellow
    /// beyond), dots for the rest, and the target mark in the cell where the target falls.
    static func loudnessBar(_ lufs: Double, target: Double, width: Int) -> StyledLine {
        let filled = Int((loudnessFraction(lufs, target: target) * Double(width)).rounded())
        let targetCell = min(width - 1, Int((loudnessFraction(target, target: target) * Double(width)).rounded(.up)) - 1)
        var line = StyledLine()
        for cell in 0..<width {
            if cell == targetCell {
                line.append(targetMark, .cyan)
            } else if cell < filled {
                line.append(fullBlock, cell < targetCell ? .green : .yellow)
            } else {
                line.append(emptyCell, .dim)
            }
        }
        return line
    }

    /// LUFS, LU or dBTP with one decimal in 6 columns (`-23.0`, ` -inf`), as `decibelText`.
    static func lufsText(_ value: Double) -> String { decibelText(value) }

    /// The target without a needless decimal (`-23`, `-14.5`).
    static func targetText(_ lufs: Double) -> String {
        lufs == lufs.rounded() ? String(Int(lufs)) : String(printf: "%.1f", lufs)
    }
}
