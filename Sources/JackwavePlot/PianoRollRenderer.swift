/// Draws MIDI notes as a piano roll in a lane of its own, alone (`plot FILE.mid`) or under a
/// waveform (`plot FILE --midi`): time across on the picture's axis, pitch up the lane (the
/// notes' lowest to highest, padded), one colour per track, louder notes more opaque, and a
/// legend of the tracks' names.
public enum PianoRollRenderer {
    /// Semitones of room above the highest note and below the lowest.
    static let padding = 2
    /// The fewest semitones the lane spans: a few notes close together stay note-shaped bars
    /// rather than filling the lane's height.
    static let minimumSpan = 13
    /// The lane's pitches when there is no note: the octave around middle C (60).
    static let emptyRange = 54...66
    /// Track colours, in the order of the tracks that hold notes (a ninth track reuses the
    /// first); none is the waveform's blue or the loudness greens.
    static let trackColors: [Color] = [0xd9480f, 0x7048e8, 0x0c8599, 0xc2255c, 0x5c940d, 0x1864ab, 0xe67700, 0x495057]
        .map { Color(hex: $0) }
    /// Opacity of the softest note (velocity 1); velocity 127 is opaque.
    static let softestOpacity = 0.3

    /// The pitches the lane shows, bottom to top: the notes' range padded, at least
    /// `minimumSpan` wide, within MIDI's 0…127.
    public static func pitches(of notes: MidiNotes) -> ClosedRange<Int> {
        guard let played = notes.pitchRange else { return emptyRange }
        var low = played.lowerBound - padding, high = played.upperBound + padding
        let short = minimumSpan - (high - low + 1)
        if short > 0 {
            low -= short / 2
            high += short - short / 2
        }
        if low < 0 { (low, high) = (0, high - low) }
        if high > 127 { (low, high) = (Swift.max(0, low - (high - 127)), 127) }
        return low...high
    }

    /// The top of `pitch`'s row and the rows' height, in `box`.
    public static func row(of pitch: Int, in pitches: ClosedRange<Int>, box: Box) -> (top: Double, height: Double) {
        let height = box.height / Double(pitches.count)
        return (box.y + Double(pitches.upperBound - pitch) * height, height)
    }

    /// The colour of track `track`'s notes (full opacity).
    public static func color(ofTrack track: Int, in notes: MidiNotes) -> Color {
        let order = notes.tracksWithNotes.firstIndex(of: track) ?? 0
        return trackColors[order % trackColors.count]
    }

    /// The lane: background, octave lines and labels, the notes, the legend. `x` maps
    /// seconds to pixels; notes outside `start`…`end` are left out.
    public static func draw(_ notes: MidiNotes, box: Box, start: Double, end: Double, ticks: TimeTicks,
                            x: (Double) -> Double, on ctx: CairoContext) {
        let pitches = pitches(of: notes)
        PlotChrome.laneBackground(ctx, box, ticks: ticks, x: x)
        // A line under every C, where an octave starts.
        let octaves = pitches.filter { $0 % 12 == 0 }
        for c in octaves {
            let r = row(of: c, in: pitches, box: box)
            let py = (r.top + r.height).rounded(.down) + 0.5
            if py < box.bottom { ctx.move(to: box.x, py); ctx.line(to: box.right, py) }
        }
        ctx.stroke()
        labels(ctx, box: box, pitches: pitches, octaves: octaves)

        ctx.save()
        ctx.rectangle(x: box.x, y: box.y, width: box.width, height: box.height)
        ctx.clip()
        drawNotes(ctx, notes, pitches: pitches, box: box, start: start, end: end, x: x)
        ctx.restore()
        legend(ctx, notes, box: box)
    }

    /// Each note a bar over its row, at least a pixel wide so that the shortest still shows.
    /// Notes of a track and a loudness step share one path: few fills, a small SVG.
    static func drawNotes(_ ctx: CairoContext, _ notes: MidiNotes, pitches: ClosedRange<Int>, box: Box,
                          start: Double, end: Double, x: (Double) -> Double) {
        let steps = 8
        var groups: [Int: [MidiNotes.Note]] = [:]
        for note in notes.notes where note.end >= start && note.start <= end && pitches.contains(note.pitch) {
            let step = Swift.min(steps - 1, Swift.max(0, note.velocity * steps / 128))
            groups[note.track * steps + step, default: []].append(note)
        }
        for key in groups.keys.sorted() {
            let (track, step) = (key / steps, key % steps)
            for note in groups[key]! {
                let r = row(of: note.pitch, in: pitches, box: box)
                let left = x(note.start)
                let width = Swift.max(1, x(note.end) - left)
                // A pixel of air between rows once they are tall enough to spare it.
                ctx.rectangle(x: left, y: r.top, width: width, height: r.height >= 4 ? r.height - 1 : r.height)
            }
            var color = color(ofTrack: track, in: notes)
            color.alpha = softestOpacity + (1 - softestOpacity) * (Double(step) + 1) / Double(steps)
            ctx.setColor(color)
            ctx.fill()
        }
    }

    /// Note names of the Cs left of the lane (C4 is middle C, 60), as many as have room,
    /// and the lane's name.
    static func labels(_ ctx: CairoContext, box: Box, pitches: ClosedRange<Int>, octaves: [Int]) {
        ctx.selectFont(bold: false)
        ctx.setFontSize(PlotChrome.labelSize - 1)
        ctx.setColor(Palette.text)
        let octaveHeight = box.height / Double(pitches.count) * 12
        for c in octaves where octaveHeight >= 14 {
            let label = "C\(c / 12 - 1)"
            let size = ctx.measure(label)
            let r = row(of: c, in: pitches, box: box)
            let baseline = Swift.min(box.bottom, Swift.max(box.y + size.height, r.top + r.height / 2 + size.height / 2))
            ctx.move(to: box.x - 6 - size.width, baseline)
            ctx.showText(label)
        }
        ctx.selectFont(bold: true)
        ctx.setFontSize(PlotChrome.labelSize + 1)
        ctx.setColor(Palette.title)
        ctx.move(to: 8, box.y + ctx.measure("MIDI").height + 2)
        ctx.showText("MIDI")
    }

    /// The tracks that hold notes, a swatch of their colour and their name each, stacked at
    /// the lane's top right over a pale backing; as many as fit in the lane's height.
    static func legend(_ ctx: CairoContext, _ notes: MidiNotes, box: Box) {
        let tracks = notes.tracksWithNotes
        guard !tracks.isEmpty else { return }
        ctx.selectFont(bold: false)
        ctx.setFontSize(PlotChrome.labelSize - 1)
        let line = PlotChrome.labelSize + 3, swatch = 9.0, pad = 5.0
        let fitting = Swift.min(tracks.count, Swift.max(1, Int((box.height - 2 * pad) / line)))
        let shown = Array(tracks.prefix(fitting))
        let labels = shown.map { notes.label(ofTrack: $0) }
        let widest = labels.map { ctx.measure($0).width }.max() ?? 0
        let width = Swift.min(box.width / 2, pad + swatch + 5 + widest + pad)
        let height = Double(shown.count) * line + pad
        let left = box.right - width - 4, top = box.y + 4
        ctx.setColor(Color(hex: 0xffffff, alpha: 0.85))
        ctx.rectangle(x: left, y: top, width: width, height: height)
        ctx.fill()
        ctx.save()
        ctx.rectangle(x: left, y: top, width: width, height: height)
        ctx.clip()
        for (i, track) in shown.enumerated() {
            let y = top + pad + Double(i) * line
            ctx.setColor(color(ofTrack: track, in: notes))
            ctx.rectangle(x: left + pad, y: y + 1, width: swatch, height: swatch)
            ctx.fill()
            ctx.setColor(Palette.text)
            ctx.move(to: left + pad + swatch + 5, y + swatch)
            ctx.showText(labels[i])
        }
        ctx.restore()
    }
}
