/// What a picture of a MIDI file alone shows (`plot FILE.mid`): its notes from `start` to
/// `end` seconds, in one piano-roll lane.
public struct MidiPicture: Sendable {
    public let title: String
    public let notes: MidiNotes
    public let start: Double
    public let end: Double

    public init(title: String, notes: MidiNotes, start: Double, end: Double) {
        self.title = title
        self.notes = notes
        self.start = start
        self.end = end
    }
}

/// Draws a `MidiPicture`: the chrome a waveform has (title, time axis) around a piano roll.
public enum MidiPictureRenderer {
    public static func draw(_ picture: MidiPicture, layout: PlotLayout, on ctx: CairoContext) {
        let (box, x, ticks) = PlotChrome.begin(ctx, layout, title: picture.title, from: picture.start, to: picture.end)
        PianoRollRenderer.draw(picture.notes, box: box, start: picture.start, end: picture.end, ticks: ticks, x: x, on: ctx)
        PlotChrome.timeAxis(ctx, layout, ticks: ticks, x: x)
    }
}
