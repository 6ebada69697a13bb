import JackwaveSoundFiles

/// Files on the wall clock (`--split-every`): where the writer cuts, and what each piece is
/// called. The connection's `WallClockCuts` says where on its stream each piece begins; the
/// writer cuts at those frames exactly (a piece ends where the next begins: they join
/// sample-exact, as `--split`'s do) and names each new file after the time of its own first
/// frame: a boundary's exact time (14:00:00) for a piece cut there, the frame clock's time
/// of its first frame otherwise (a connection's or a take's start, a piece after a step).
extension RecordingFiles {
    /// Compares the wall clock's `reading` at `frame` (of this connection's stream, a frame
    /// the callback has reached) with the frame clock (main thread): drift moves the next
    /// cut; a step is returned, to be reported, and the piece under way ends at once.
    public func observeClock(frame: Int64, reading: WallClockTime) -> ClockStep? {
        clockCuts.withLock { cuts -> ClockStep? in
            guard cuts != nil else { return nil }
            return cuts!.observe(frame: frame, reading: reading)
        }
    }

    /// Where the next piece on the wall clock begins, as a frame of this connection's stream
    /// (for the status and the tests); nil off the wall clock.
    public var nextClockCut: Int64? { clockCuts.withLock { $0?.next.frame } }

    /// File frames of the segment left before the next cut on the wall clock; 0 to cut now,
    /// nil for none. Cuts at or before the current file's own first frame are passed by (the
    /// file began at or after them).
    func pendingClockCut() -> Int64? {
        clockCuts.withLock { cuts -> Int64? in
            guard cuts != nil else { return nil }
            while true {
                let at = spec.fileFrames(fromInputFrames: cuts!.next.frame - segmentStreamFrame)
                if at > segmentFileFrames { return at - segmentFileFrames }
                if at > fileStartInSegment && framesInPiece > 0 { return 0 }
                cuts!.advance()
            }
        }
    }

    /// The folder and the relative path of the next file on the wall clock, named after the
    /// time of its own first frame (the next frame written). Writer thread (or the main
    /// thread for a run's first file, before the connection has started: named after now).
    func clockName() -> (root: String, relative: String) {
        let naming = spec.clock!.naming
        let frame = segmentStreamFrame + spec.inputFrames(fromFileFrames: segmentFileFrames)
        let named = clockCuts.withLock { cuts -> WallClockTime in
            guard cuts != nil else { return WallClockTime.now() }
            // Pass the cuts this file begins after: its piece is the current one.
            while spec.fileFrames(fromInputFrames: cuts!.next.frame - segmentStreamFrame) <= segmentFileFrames { cuts!.advance() }
            let piece = cuts!.current
            if spec.fileFrames(fromInputFrames: piece.frame - segmentStreamFrame) == segmentFileFrames { return piece.named }
            return cuts!.anchor.time(ofFrame: frame, sampleRate: spec.inputRate)
        }
        return (naming.folder, naming.relativePath(for: named))
    }
}
