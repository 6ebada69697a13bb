import Foundation
import JackwaveDSP
import JackwaveMIDI
import JackwaveRecording
import JackwaveRunSupport

/// `--midi-file`: what bringing a `.mid` up to date costs the thread that writes it, for a
/// file already holding N events: each refresh (`MidiRecorder.refresh`, four a second while
/// recording) after a quarter second of events, 25 of them (100 a second). Driven
/// through the recorder's public API, as the writer drives it, into a real file on
/// `$TMPDIR`. Channel messages (note on, note off), which every writer jackwave ever had
/// could store.
func midiFileTable(options o: Options) {
    let sizes = o.quick ? [10_000, 100_000] : [10_000, 100_000, 499_000]
    let refreshes = o.quick ? 5 : 20
    print("Bringing a .mid up to date (MidiRecorder.refresh), 25 new events a refresh: ms of the thread's CPU per refresh (median of \(refreshes)), and the share of one core at 4 refreshes a second")
    print("")
    print("| inputs | events in the file | file MB | CPU ms per refresh | % of a core |")
    print("|---:|---:|---:|---:|---:|")
    for inputs in [1, 2] {
        for size in sizes { midiFileRow(inputs: inputs, events: size, refreshes: refreshes) }
    }
}

/// The calling thread's CPU time: what a refresh costs, whatever else the machine runs.
func threadNanoseconds() -> UInt64 {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
}

/// One row of `midiFileTable`: `inputs` recorded, the events taking turns among them (with
/// two, both tracks grow at every refresh: the first's growth moves the second's, the
/// writer's costliest case).
func midiFileRow(inputs: Int, events: Int, refreshes: Int) {
    let dir = (ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp") + "/jackwave-bench-midi-\(getpid())"
    try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let ring = SPSCRing<MidiRecord>(minimumCapacity: 8192, width: 1)
    let settings = MidiRecordingSettings(trackNames: (1...inputs).map { "bench:in\($0)" }, controlInput: nil, marker: nil, inputRate: sampleRate,
                                         fileRate: sampleRate, policy: .new, lookBackFrames: 0)
    let messages = MessageQueue()
    let recorder = MidiRecorder(settings: settings, messages: messages, events: nil, onMarker: nil)
    recorder.attach(ring: ring, timelineBase: 0)
    let audio = dir + "/take.wav"
    recorder.fileBegan(RecordedFile(path: audio, take: 0, piece: 1, firstFrame: 0, endFrame: 0, frames: 0, ok: true))
    // An event every 480 frames (100 a second at 48 kHz), on each input a note on, then its off:
    // 499,000 of them span less than 2^28 ticks, which libsmf, jackwave's writer before, needed.
    var frame: Int64 = 0
    var sent = 0
    func send(_ count: Int) {
        var left = count
        while left > 0 {
            let batch = min(left, 4096)
            for _ in 0..<batch {
                let n = sent / inputs
                var bytes: [UInt8] = n % 2 == 0 ? [0x90, UInt8(n / 2 % 128), 100] : [0x80, UInt8(n / 2 % 128), 64]
                let region = ring.writableRegions(upTo: 1)
                guard region.count == 1 else { fatalError("the bench's MIDI ring is full") }
                let port = UInt16(sent % inputs)
                bytes.withUnsafeMutableBufferPointer { MidiRecord.fill(region, frame: frame, port: port, data: $0.baseAddress!, length: 3) }
                ring.commitWrite(1)
                frame += 480
                sent += 1
            }
            recorder.reached(frame)
            left -= batch
        }
    }
    send(events)
    recorder.refresh()
    var times: [Double] = []
    for _ in 0..<refreshes {
        send(25)
        let t0 = threadNanoseconds()
        recorder.refresh()
        times.append(Double(threadNanoseconds() - t0) / 1e6)
    }
    let said = messages.drain()
    if !said.isEmpty { print("(the recorder said: \(said.map { $0.text(naming: { "\($0)" }) }))") }
    let bytes = (try? FileManager.default.attributesOfItem(atPath: dir + "/take.mid")[.size] as? Int) ?? 0
    let median = times.sorted()[times.count / 2]
    print("| \(inputs) | \(events) | \(format(Double(bytes) / 1e6, 2)) | \(format(median, 3)) | \(format(median * 4 / 10, 3)) |")
}
