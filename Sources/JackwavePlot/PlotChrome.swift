import FoundationEssentials
import Glibc

/// Colours of every plot, in one place.
enum Palette {
    static let background = Color(hex: 0xffffff)
    static let lane = Color(hex: 0xf5f7fa)
    static let grid = Color(hex: 0xdde2e8)
    static let zeroLine = Color(hex: 0x98a2ad)
    static let text = Color(hex: 0x4a5560)
    static let title = Color(hex: 0x16202a)
    /// Min…max of each column: a saturated blue.
    static let peak = Color(hex: 0x2a5fa8)
    /// RMS on top of it, lighter, as audio editors draw it.
    static let rms = Color(hex: 0x86b2e6)
    /// Level-stream bars, in the red of a voice recorder.
    static let bar = Color(hex: 0xe0483e)
}

/// Everything around the data, shared by the waveform and the level-stream pictures:
/// background, title, lane backgrounds with grid lines, amplitude labels, channel names,
/// the time axis.
enum PlotChrome {
    static let labelSize = 12.0
    static let titleSize = 14.0

    /// White background over the whole picture.
    static func background(_ ctx: CairoContext, _ layout: PlotLayout) {
        ctx.setColor(Palette.background)
        ctx.paint()
    }

    /// The start of a picture whose one time axis spans the first lane's width, `start` to
    /// `end` seconds (a level stream, a MIDI file): background and title drawn; the first
    /// lane, the x of a time, and the ticks.
    static func begin(_ ctx: CairoContext, _ layout: PlotLayout, title: String, from start: Double, to end: Double)
        -> (box: Box, x: (Double) -> Double, ticks: TimeTicks) {
        let box = layout.lane(0)
        let span = end - start
        let x = { (t: Double) in box.x + (t - start) / span * box.width }
        background(ctx, layout)
        self.title(ctx, title, layout)
        return (box, x, timeTicks(ctx, from: start, to: end, pixels: box.width))
    }

    /// Separates the parts of a title ("name · duration · rate · channels").
    static let titleSeparator = "  ·  "

    /// The title line, left-aligned above the first lane. On a narrow picture its last
    /// parts are dropped, whole, until it fits.
    static func title(_ ctx: CairoContext, _ text: String, _ layout: PlotLayout) {
        ctx.selectFont(bold: true)
        ctx.setFontSize(titleSize)
        ctx.setColor(Palette.title)
        let room = Double(layout.width - PlotLayout.marginLeft - PlotLayout.marginRight)
        var parts = text.components(separatedBy: titleSeparator)
        while parts.count > 1 && ctx.measure(parts.joined(separator: titleSeparator)).width > room {
            parts.removeLast()
        }
        ctx.move(to: Double(PlotLayout.marginLeft), Double(PlotLayout.marginTop) - 14)
        ctx.showText(parts.joined(separator: titleSeparator))
    }

    /// Ticks that fit: as many as possible while the widest label still has 20 px of
    /// air on each side.
    static func timeTicks(_ ctx: CairoContext, from start: Double, to end: Double, pixels: Double) -> TimeTicks {
        ctx.selectFont(bold: false)
        ctx.setFontSize(labelSize)
        var maxCount = Swift.max(2, Int(pixels / 70))
        while true {
            let ticks = TimeTicks.choose(from: start, to: end, maxCount: maxCount)
            let widest = ticks.values.map { ctx.measure(ticks.label($0)).width }.max() ?? 0
            let spacing = ticks.step / (end - start) * pixels
            if spacing >= widest + 20 || maxCount <= 2 { return ticks }
            maxCount -= 1
        }
    }

    /// A lane's background, its vertical time grid, its amplitude grid and labels, and
    /// the channel name at the far left. `x` maps seconds to pixels.
    static func lane(_ ctx: CairoContext, _ box: Box, name: String, scale: AmplitudeScale,
                     ticks: TimeTicks, x: (Double) -> Double) {
        laneBackground(ctx, box, ticks: ticks, x: x)
        let amplitudeTicks = scale.ticks(laneHeight: box.height)
        for tick in amplitudeTicks where tick.position != 0 {
            let py = y(tick.position, in: box).rounded(.down) + 0.5
            ctx.move(to: box.x, py)
            ctx.line(to: box.right, py)
        }
        ctx.stroke()

        ctx.selectFont(bold: false)
        ctx.setFontSize(labelSize - 1)
        ctx.setColor(Palette.text)
        for tick in amplitudeTicks {
            let size = ctx.measure(tick.label)
            // Keep the top and bottom labels inside the lane's height.
            let baseline = Swift.min(box.bottom, Swift.max(box.y + size.height, y(tick.position, in: box) + size.height / 2))
            ctx.move(to: box.x - 6 - size.width, baseline)
            ctx.showText(tick.label)
        }

        ctx.selectFont(bold: true)
        ctx.setFontSize(labelSize + 1)
        ctx.setColor(Palette.title)
        let nameSize = ctx.measure(name)
        ctx.move(to: 8, box.midY + nameSize.height / 2)
        ctx.showText(name)
    }

    /// A lane's background and its vertical time grid, left as the current path (in the grid's
    /// colour and width) for the caller to add its own horizontal lines to and stroke.
    static func laneBackground(_ ctx: CairoContext, _ box: Box, ticks: TimeTicks, x: (Double) -> Double) {
        ctx.setColor(Palette.lane)
        ctx.rectangle(x: box.x, y: box.y, width: box.width, height: box.height)
        ctx.fill()
        // Grid lines sit on half pixels so that a 1 px line covers exactly one pixel row.
        ctx.setLineWidth(1)
        ctx.setColor(Palette.grid)
        for t in ticks.values {
            let px = x(t).rounded(.down) + 0.5
            ctx.move(to: px, box.y)
            ctx.line(to: px, box.bottom)
        }
    }

    /// The zero (or -∞ dB) line through a lane's middle, drawn over the data.
    static func zeroLine(_ ctx: CairoContext, _ box: Box) {
        ctx.setLineWidth(1)
        ctx.setColor(Palette.zeroLine)
        let py = box.midY.rounded(.down) + 0.5
        ctx.move(to: box.x, py)
        ctx.line(to: box.right, py)
        ctx.stroke()
    }

    /// Tick marks and labels under the lowest lane.
    static func timeAxis(_ ctx: CairoContext, _ layout: PlotLayout, ticks: TimeTicks, x: (Double) -> Double) {
        let bottom = layout.lane(layout.lanes - 1).bottom
        ctx.setLineWidth(1)
        ctx.setColor(Palette.zeroLine)
        for t in ticks.values {
            let px = x(t).rounded(.down) + 0.5
            ctx.move(to: px, bottom)
            ctx.line(to: px, bottom + 5)
        }
        ctx.stroke()
        ctx.selectFont(bold: false)
        ctx.setFontSize(labelSize)
        ctx.setColor(Palette.text)
        for t in ticks.values {
            let text = ticks.label(t)
            let w = ctx.measure(text).width
            let left = Swift.min(Double(layout.width) - w - 2, Swift.max(2, x(t) - w / 2))
            ctx.move(to: left, layout.timeLabelBaseline)
            ctx.showText(text)
        }
    }

    /// The pixel row of a scale position (-1 bottom … 1 top) in a lane.
    @inline(__always)
    static func y(_ position: Double, in box: Box) -> Double {
        box.midY - position * box.height / 2
    }
}
