import JackwaveDSP

extension RealtimeEngine {
    /// Publishes this block's record for the take logic: the loudest input's peak (the ones
    /// `pushAudio` measured, in `peakScratch`, or measured here) and the transport state.
    ///
    /// Published after the block's audio (both commits `.releasing`): a writer that sees the
    /// record (`.acquiring`) sees the audio it covers, so it never takes audio ahead of its
    /// record. A full ring loses the record; `pushAudio` has then dropped the audio as well,
    /// and the writer fills the gap with silence that no take logic hears.
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
                                           rolling: rolling)
        ring.commitWrite(1)
    }
}
