import JackwaveDSP

extension RealtimeEngine {
    /// Copies the block of the LTC input (`--ltc`) into the LTC ring, whole or not at all.
    /// A block without room is a gap, announced in `ltcGaps` before any later sample (as the
    /// audio's drops are), so that the decoding thread puts every sample at its frame and
    /// counts the code it lost. Offline (no port buffer) the block is silence.
    // realtime
    @inline(__always)
    func pushLTC(_ ring: SPSCRing<Float>, startFrame: Int64, frames: Int) {
        let s = state
        let region = ring.writableRegions(upTo: frames)
        guard region.count == frames && publishPendingLTCGap() else {
            if s.pointee.pendingLTCGapCount == 0 { s.pointee.pendingLTCGapStart = startFrame }
            s.pointee.pendingLTCGapCount += Int64(frames)
            return
        }
        if let source = ltcBuffer.pointee {
            region.first.update(from: source, count: region.firstCount)
            if region.secondCount > 0 { region.second.update(from: source + region.firstCount, count: region.secondCount) }
        } else {
            region.first.update(repeating: 0, count: region.firstCount)
            if region.secondCount > 0 { region.second.update(repeating: 0, count: region.secondCount) }
        }
        ring.commitWrite(frames)
    }

    /// Hands the pending LTC gap, if any, to the decoding thread; false if its ring is full.
    // realtime
    @inline(__always)
    func publishPendingLTCGap() -> Bool {
        guard let ltcGapsRef else { return false }
        let s = state
        return ltcGapsRef._withUnsafeGuaranteedRef {
            Self.publishGap(into: $0, start: s.pointee.pendingLTCGapStart, count: &s.pointee.pendingLTCGapCount)
        }
    }
}
