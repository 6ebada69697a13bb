/// One terminal line as runs of text with an optional colour, so that it can be cut to
/// the terminal's width by *visible* characters and then printed with or without ANSI
/// colours (`NO_COLOR`) from the same description.
///
/// Every character the meter draws occupies one terminal column (ASCII, block elements,
/// box drawing), so visible width is the `Character` count.
struct StyledLine: Equatable {
    /// SGR colours the meter uses.
    enum Color: String {
        case green = "32", yellow = "33", red = "31", cyan = "36", dim = "2"
    }

    private(set) var runs: [(text: String, color: Color?)] = []

    static func == (a: StyledLine, b: StyledLine) -> Bool {
        a.runs.map(\.text) == b.runs.map(\.text) && a.runs.map(\.color) == b.runs.map(\.color)
    }

    init() {}

    init(_ text: String, _ color: Color? = nil) { append(text, color) }

    /// Adds text, merging with the previous run when the colour is the same.
    mutating func append(_ text: String, _ color: Color? = nil) {
        guard !text.isEmpty else { return }
        if let last = runs.last, last.color == color {
            runs[runs.count - 1].text += text
        } else {
            runs.append((text, color))
        }
    }

    /// Adds another line's runs.
    mutating func append(_ other: StyledLine) {
        for run in other.runs { append(run.text, run.color) }
    }

    /// Visible columns.
    var width: Int { runs.reduce(0) { $0 + $1.text.count } }

    /// The line cut to at most `columns` visible characters.
    func truncated(to columns: Int) -> StyledLine {
        var out = StyledLine()
        var left = max(0, columns)
        for run in runs where left > 0 {
            let piece = String(run.text.prefix(left))
            out.append(piece, run.color)
            left -= piece.count
        }
        return out
    }

    /// The characters to print: with colours, each coloured run is wrapped in
    /// `ESC[<n>m … ESC[0m`; without, plain text and no escape at all.
    func rendered(color: Bool) -> String {
        var s = ""
        for run in runs {
            if color, let c = run.color {
                s += "\u{1B}[\(c.rawValue)m" + run.text + "\u{1B}[0m"
            } else {
                s += run.text
            }
        }
        return s
    }
}
