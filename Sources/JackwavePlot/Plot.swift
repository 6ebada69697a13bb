import FoundationEssentials
import Glibc
import JackwaveSoundFiles
import JackwaveVocabulary

/// `jackwave plot`: reads a recording or a level stream and draws it to a PNG or SVG file.
/// Everything the input can get wrong is found before the output is touched, and the picture
/// is renamed into place only when complete, so a failed plot destroys nothing.
public enum Plot {
    /// Draws `input` (a sound file, a `.csv`/`.jsonl` level stream, or a `.mid` MIDI file) to `output`, or where
    /// `existing` says if a file is there; returns the path written.
    @discardableResult
    public static func draw(_ input: String, to output: String, options: PlotOptions = PlotOptions(),
                            existing: PictureFile.Existing = .refuse) throws(PlotError) -> String {
        guard let format = PlotFormat(path: output) else {
            throw .badInput("\(output): unknown picture type (use .png or .svg)")
        }
        try check(options)
        var info = stat()
        guard stat(input, &info) == 0 else { throw .badInput("\(input): no such file") }
        if info.st_mode & S_IFMT == S_IFDIR { throw .badInput("\(input): is a directory") }
        if LevelStream.isLevelStream(input) {
            if options.midi { throw .badInput("\(setting: .plotMidi) draws the MIDI file beside a recording, not a level stream's") }
            return try drawLevels(input, to: output, format: format, options: options, existing: existing)
        } else if MidiNotes.isMidiFile(input) {
            return try drawMidi(input, to: output, format: format, options: options, existing: existing)
        } else {
            return try drawRecording(input, to: output, format: format, options: options, existing: existing)
        }
    }

    /// Option values that are wrong whatever the input.
    static func check(_ o: PlotOptions) throws(PlotError) {
        for (name, value, sizes) in [(Setting.plotWidth, o.width, PlotOptions.widthRange),
                                     (Setting.plotHeight, o.height, PlotOptions.heightRange)] {
            if let v = value, !sizes.contains(v) {
                throw .badInput("\(setting: name) must be between \(sizes.lowerBound) and \(sizes.upperBound) pixels, not \(v)")
            }
        }
        for (name, value) in [(Setting.plotStart, o.start), (Setting.plotEnd, o.end)] {
            if let v = value, !(v.isFinite && v >= 0) { throw .badInput("\(setting: name) must be a time ≥ 0 seconds") }
        }
        if let s = o.start, let e = o.end, e <= s {
            throw .badInput("\(setting: .plotEnd) \(seconds(e)) must be after \(setting: .plotStart) \(seconds(s))")
        }
    }

    /// The shown time range, checked against the input's duration (seconds): never empty, as
    /// the title and the axis divide by its length (`--end 0` alone, with the default start
    /// of 0, is refused here).
    static func range(_ o: PlotOptions, duration: Double, input: String) throws(PlotError) -> (start: Double, end: Double) {
        let start = o.start ?? 0
        if start >= duration {
            throw .badInput("\(setting: .plotStart) \(seconds(start)) is past the end of \(input) (\(TimeText.duration(duration)))")
        }
        let end = Swift.min(duration, o.end ?? duration)
        if end <= start {
            throw .badInput("\(setting: .plotEnd) \(seconds(end)) must be after the start (\(seconds(start)) s)")
        }
        return (start, end)
    }

    /// The picture's size for `lanes` lanes, checked; more lanes than the tallest picture
    /// holds are refused in the user's terms (a lane per channel), before anything is read.
    static func layout(_ o: PlotOptions, lanes: Int, input: String = "") throws(PlotError) -> PlotLayout {
        let most = PlotLayout.maximumLanes
        guard lanes <= most else {
            throw .badInput("\(input): \(lanes) lanes (one per channel) do not fit in a picture; at most \(most) do, \(PlotOptions.heightRange.upperBound) pixels high")
        }
        let width = o.width ?? PlotLayout.defaultWidth
        let height = o.height ?? Swift.min(PlotOptions.heightRange.upperBound, PlotLayout.defaultHeight(lanes: lanes))
        let least = PlotLayout.minimumHeight(lanes: lanes)
        if height < least {
            throw .badInput("\(setting: .plotHeight) \(height) is too small for \(lanes) lane\(lanes == 1 ? "" : "s") (at least \(least))")
        }
        return PlotLayout(width: width, height: height, lanes: lanes)
    }

    // MARK: Recordings

    static func drawRecording(_ input: String, to output: String, format: PlotFormat, options: PlotOptions,
                              existing: PictureFile.Existing) throws(PlotError) -> String {
        let file: SoundFile
        do { file = try SoundFile(readingFrom: input) } catch {
            throw .badInput("\(input): not a sound file libsndfile can read (\(error.reason))")
        }
        defer { file.close() }
        guard file.frames > 0, file.channels > 0, file.sampleRate > 0 else {
            throw .badInput("\(input): the recording is empty")
        }
        let rate = Double(file.sampleRate)
        let duration = Double(file.frames) / rate
        let (start, end) = try range(options, duration: duration, input: input)
        // The MIDI file is read before the picture is sized, so that a bad one is what is reported.
        let notes = try options.midi ? midiBeside(input) : nil
        let lanes = file.channels + (options.loudness ? 1 : 0) + (options.midi ? 1 : 0)
        let layout = try self.layout(options, lanes: lanes, input: input)
        let first = Swift.min(file.frames - 1, Int64((start * rate).rounded()))
        let last = Swift.min(file.frames, Int64((end * rate).rounded()))
        guard last > first else {
            throw .badInput("\(seconds(start))–\(seconds(end)) s is shorter than one sample at \(file.sampleRate) Hz")
        }
        let grid = ColumnGrid(firstFrame: first, frameCount: last - first, columns: layout.columns)

        let data: Waveform.Data
        if grid.frameCount < Int64(grid.columns) {
            let window = SoundFileReading.frames(of: file, from: first - 1, to: last + 1)
            data = .frames(start: window.start, samples: window.samples)
        } else {
            data = .columns(SoundFileReading.columns(of: file, grid: grid))
        }
        var title = [FileNames.lastComponent(input), TimeText.duration(duration),
                     "\(file.sampleRate) Hz", "\(file.channels) channel\(file.channels == 1 ? "" : "s")"]
        if first > 0 || last < file.frames {
            let (a, b) = (Double(first) / rate, Double(last) / rate)
            title.append("showing \(instant(a, duration, span: b - a))–\(instant(b, duration, span: b - a))")
        }
        let scale: AmplitudeScale = options.decibels ? .decibels(floor: AmplitudeScale.defaultFloor) : .linear
        var curves: LoudnessCurves?
        if options.loudness {
            guard let measured = FileLoudnessCurves.measure(file, upTo: last) else {
                throw .badInput("\(input): libebur128 cannot measure \(file.channels) channels at \(file.sampleRate) Hz")
            }
            curves = measured
            if let i = measured.integrated { title.append(String(printf: "I %.1f LUFS", i)) }
        }
        if let notes { title.append(count(notes.notes.count, "MIDI note")) }
        let wave = Waveform(title: title.joined(separator: PlotChrome.titleSeparator), channelNames: Waveform.channelNames(file.channels),
                            sampleRate: file.sampleRate, grid: grid, scale: scale, data: data, loudness: curves, midi: notes)
        return try PictureFile.write(output, format: format, layout: layout, existing: existing) {
            WaveformRenderer.draw(wave, layout: layout, on: $0)
        }
    }

    /// The notes of the MIDI file beside `recording` (`take.wav` → `take.mid`), for `--midi`.
    static func midiBeside(_ recording: String) throws(PlotError) -> MidiNotes {
        let path = FileNames.stemAndExtension(recording).stem + ".mid"
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw .badInput("\(path): no such file (\(setting: .plotMidi) draws the MIDI file beside the recording)")
        }
        return try MidiNotes.read(path: path)
    }

    // MARK: MIDI files

    static func drawMidi(_ input: String, to output: String, format: PlotFormat, options: PlotOptions,
                         existing: PictureFile.Existing) throws(PlotError) -> String {
        if options.midi { throw .badInput("\(setting: .plotMidi) draws the MIDI file beside a recording; \(input) is one itself") }
        if options.loudness { throw .badInput("\(setting: .loudness) measures a recording; \(input) is a MIDI file") }
        let layout = try self.layout(options, lanes: 1)
        let notes = try MidiNotes.read(path: input)
        guard notes.length > 0 else { throw .badInput("\(input): the MIDI file lasts 0 s; there is nothing to draw") }
        let (start, end) = try range(options, duration: notes.length, input: input)
        let tracks = notes.tracksWithNotes.count
        var title = [FileNames.lastComponent(input), "MIDI", TimeText.duration(notes.length), count(notes.notes.count, "note")]
        if tracks > 1 { title.append("\(tracks) tracks") }
        if start > 0 || end < notes.length {
            let span = end - start
            title.append("showing \(instant(start, notes.length, span: span))–\(instant(end, notes.length, span: span))")
        }
        let picture = MidiPicture(title: title.joined(separator: PlotChrome.titleSeparator), notes: notes, start: start, end: end)
        return try PictureFile.write(output, format: format, layout: layout, existing: existing) {
            MidiPictureRenderer.draw(picture, layout: layout, on: $0)
        }
    }

    /// "1 note", "12 notes".
    static func count(_ n: Int, _ thing: String) -> String { "\(n) \(thing)\(n == 1 ? "" : "s")" }

    // MARK: Level streams

    static func drawLevels(_ input: String, to output: String, format: PlotFormat, options: PlotOptions,
                           existing: PictureFile.Existing) throws(PlotError) -> String {
        let stream = try LevelStream.read(path: input)
        let (start, end) = try range(options, duration: stream.duration, input: input)
        let layout = try self.layout(options, lanes: stream.loudness == nil ? 1 : 2)
        let channels = stream.channelNames.count
        var title = [FileNames.lastComponent(input), "levels", TimeText.duration(stream.duration),
                     "\(stream.rowsRead) row\(stream.rowsRead == 1 ? "" : "s")"]
        if channels > 1 { title.append("loudest of \(channels) channels") }
        if start > 0 || end < stream.duration {
            let span = end - start
            title.append("showing \(instant(start, stream.duration, span: span))–\(instant(end, stream.duration, span: span))")
        }
        let scale: AmplitudeScale = options.decibels ? .decibels(floor: AmplitudeScale.defaultFloor) : .linear
        let picture = LevelPicture(title: title.joined(separator: PlotChrome.titleSeparator), stream: stream, start: start, end: end, scale: scale)
        return try PictureFile.write(output, format: format, layout: layout, existing: existing) {
            LevelStreamRenderer.draw(picture, layout: layout, on: $0)
        }
    }

    /// A time in a title, styled for the file's duration, with enough decimals that the
    /// two ends of a `span`-long zoom differ (milliseconds, or finer for short zooms).
    static func instant(_ t: Double, _ duration: Double, span: Double) -> String {
        let decimals = span >= 1 ? 3 : Swift.min(6, Swift.max(3, Int((-log10(span)).rounded(.up)) + 2))
        return duration < 60 ? "\(fixed(t, decimals)) s" : TimeText.clock(t, decimals: decimals, hours: duration >= 3600)
    }

    /// Seconds as the user typed them, more or less: no trailing zeros.
    static func seconds(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
    }
}
