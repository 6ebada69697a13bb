import CJack
import JackwaveDSP

extension RealtimeEngine {
    /// Copies this cycle's MIDI events of every MIDI input into the MIDI ring, and notes the
    /// control input's first MMC command for the block record. Events past the frame limit
    /// (`--duration`) are not part of the run. Realtime-safe: libjack's MIDI reads only walk
    /// the port buffer. Loops count in `Int`: a `Range<UInt32>` is generic code in an
    /// unoptimized build, whose conformance lookup locks and allocates.
    // realtime
    @inline(__always)
    func takeMidi(startFrame: Int64, frames: Int) {
        let s = state
        s.pointee.pendingCommand = nil
        s.pointee.pendingCommandOffset = 0
        var port = 0
        while port < configuration.midiInputs {
            midiBlockEvents[port] = 0
            if let buffer = midiBuffers[port] {
                let lost = Int(jack_midi_get_lost_event_count(buffer))
                if lost > 0 { midiActivity.jackLost(port: port, count: lost) }
                let count = Int(jack_midi_get_event_count(buffer))
                var event = jack_midi_event_t()
                var i = 0
                while i < count {
                    if jack_midi_event_get(&event, buffer, UInt32(i)) == 0, event.size > 0, let data = event.buffer,
                       Int(event.time) < frames {
                        takeMidiEvent(data: data, length: event.size, offset: Int(event.time), port: port, startFrame: startFrame)
                    }
                    i += 1
                }
            }
            port += 1
        }
    }

    /// One event: counted, its MMC command noted (control input), and copied into the MIDI
    /// ring whole, or counted lost. Apart from `takeMidi` so that the warm-up runs it too.
    // realtime
    @inline(__always)
    func takeMidiEvent(data: UnsafePointer<UInt8>, length: Int, offset: Int, port: Int, startFrame: Int64) {
        midiActivity.received(port: port)
        midiBlockEvents[port] += 1
        if port == configuration.controlInput { noteCommand(data: data, length: length, offset: offset, port: port) }
        guard let midiRingRef else { return }
        let pushed = midiRingRef._withUnsafeGuaranteedRef { ring in
            let slots = MidiRecord.slots(forBytes: length)
            let region = ring.writableRegions(upTo: slots)
            guard region.count == slots else { return false }
            MidiRecord.fill(region, frame: startFrame + Int64(offset), port: UInt16(port), data: data, length: length)
            ring.commitWrite(slots)
            return true
        }
        if !pushed { midiActivity.noRoom(port: port) }
    }

    /// Keeps the cycle's first MMC command of the control input for the block record.
    // realtime
    @inline(__always)
    func noteCommand(data: UnsafePointer<UInt8>, length: Int, offset: Int, port: Int) {
        guard let command = MachineControl.command(in: data, length: length) else { return }
        if state.pointee.pendingCommand == nil {
            state.pointee.pendingCommand = command
            state.pointee.pendingCommandOffset = Int32(offset)
        } else {
            midiActivity.commandIgnored(port: port)
        }
    }

    /// The warm-up's MIDI: a 3-byte message, a 256-byte SysEx across slots and an MMC
    /// command through every input, off the realtime thread (`warmUp(like:sampleRate:)`).
    func warmUpMidi() {
        guard configuration.midiInputs > 0 else { return }
        var sysEx = [UInt8](repeating: 0x10, count: 256)
        sysEx[0] = 0xF0
        sysEx[255] = 0xF7
        let messages: [[UInt8]] = [[0x90, 60, 100], sysEx, [0xF0, 0x7F, 0x7F, 0x06, 0x06, 0xF7]]
        for port in 0..<configuration.midiInputs {
            for message in messages {
                message.withUnsafeBufferPointer { takeMidiEvent(data: $0.baseAddress!, length: $0.count, offset: 1, port: port, startFrame: 0) }
            }
        }
        if let midiRing { midiRing.commitRead(midiRing.readableCount) }
        state.pointee.pendingCommand = nil
    }
}
