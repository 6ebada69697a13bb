import CJack
import JackwaveDSP

extension RealtimeEngine {
    /// Copies this cycle's MIDI events of every MIDI input into the MIDI ring, each whole or
    /// not at all, and notes the control input's first MMC command for the block record.
    /// Events past the frame limit (`--duration`) are not part of the run. Realtime-safe:
    /// libjack's MIDI reads only walk the port buffer.
    @inline(__always)
    func takeMidi(startFrame: Int64, frames: Int) {
        let s = state
        s.pointee.pendingCommand = nil
        s.pointee.pendingCommandOffset = 0
        for port in 0..<configuration.midiInputs {
            midiBlockEvents[port] = 0
            guard let buffer = midiBuffers[port] else { continue }
            let lostByJack = Int(jack_midi_get_lost_event_count(buffer))
            if lostByJack > 0 { midiActivity.jackLost(port: port, count: lostByJack) }
            let count = jack_midi_get_event_count(buffer)
            var event = jack_midi_event_t()
            for i in 0..<count {
                guard jack_midi_event_get(&event, buffer, i) == 0, event.size > 0, let data = event.buffer else { continue }
                let offset = Int(event.time)
                if offset >= frames { continue }
                midiActivity.received(port: port)
                midiBlockEvents[port] += 1
                if port == configuration.controlInput {
                    noteCommand(data: data, length: event.size, offset: offset, port: port)
                }
                guard let midiRingRef else { continue }
                let pushed = midiRingRef._withUnsafeGuaranteedRef { ring in
                    let slots = MidiRecord.slots(forBytes: event.size)
                    let region = ring.writableRegions(upTo: slots)
                    guard region.count == slots else { return false }
                    MidiRecord.fill(region, frame: startFrame + Int64(offset), port: UInt16(port), data: data, length: event.size)
                    ring.commitWrite(slots)
                    return true
                }
                if !pushed { midiActivity.noRoom(port: port) }
            }
        }
    }

    /// Keeps the cycle's first MMC command of the control input for the block record.
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
}
