import JackwaveDSP

extension RealtimeEngine {
    /// Publishes this block's record for the take logic: the loudest input's peak and the
    /// transport state. After the block's audio (both commits `.releasing`), so a writer that
    /// sees the record (`.acquiring`) sees its audio. A full ring loses the record, but
    /// `pushAudio` has then dropped the audio too, and the writer fills that gap with silence.
    // realtime
    @inline(__always)
    func pushBlock(_ ring: SPSCRing<BlockRecord>, startFrame: Int64, frames: Int, alreadyMeasured: Bool) {
        let region = ring.writableRegions(upTo: 1)
        guard region.count == 1 else { return }
        var loudest: Float = 0
        for c in 0..<configuration.inputs {
            let peak = alreadyMeasured ? peakScratch[c] : Peak.of(inputBuffers[c], count: frames)
            loudest = max(loudest, peak)
        }
        var rolling = false
        if configuration.followsTransport, let clientHandle { rolling = JackTransport.isRolling(clientHandle) }
        region.first.pointee = BlockRecord(startFrame: startFrame, frameCount: Int32(frames), peak: loudest,
                                           rolling: rolling, command: state.pointee.pendingCommand,
                                           commandOffset: state.pointee.pendingCommandOffset)
        ring.commitWrite(1)
    }
}
