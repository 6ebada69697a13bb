import JackwaveSoundFiles

/// The file before the current one while it takes its tail (`--overlap`): the frames after
/// its own piece's end, the same ones the current file begins with.
struct OverlapTail {
    let file: SoundFile
    var record: RecordedFile
    /// Its own piece's end, in file frames of the segment.
    let ownEnd: Int64
    /// Frames of the tail written so far, and how many it takes at most.
    var written: Int64 = 0
    let length: Int64
}

/// `--overlap O`: each piece's file also holds the last O frames before its piece and the
/// first O after it, so that a programme across a boundary is whole in one file; the
/// pieces' own frames still join sample-exact (`OverlapSpans` states which frames are
/// doubled). The writer keeps the segment's last O frames (`history`) to begin each new file
/// with (its lead-in), and keeps the file before open for O frames more (its tail). Neither
/// reaches past the segment (a connection, a take) nor past a neighbour's far cut: a cut that
/// comes while a tail is still open ends that tail there.
extension RecordingFiles {
    /// At a cut: the current file goes on as the tail (any earlier tail ends here), and the
    /// next file opens at the next frame written, beginning with its lead-in.
    func retireToTail() -> Bool {
        guard closeTail() else { return false }
        guard let file = current, let record = currentRecord else { return close() }
        let overlap = spec.clock?.overlapFrames ?? 0
        tail = OverlapTail(file: file, record: record, ownEnd: segmentFileFrames, length: overlap)
        // What the piece's own frames were, for its file's record and the next lead-in.
        tail!.record.frames = leadIn + framesInPiece
        tail!.record.sharedFrames = leadIn
        current = nil
        currentRecord = nil
        lastPieceFrames = framesInPiece
        framesInPiece = 0
        leadIn = 0
        fileStartInSegment = segmentFileFrames
        return true
    }

    /// The frames just written to the current file (`count` from `frames`): kept for the next
    /// lead-in, and written to the tail while it takes them. False if the tail failed.
    func feedOverlap(_ frames: UnsafePointer<Float>, count: Int) -> Bool {
        guard let history, count > 0 else { return true }
        history.append(frames, frames: count)
        guard var t = tail else { return true }
        let n = Int(min(Int64(count), t.length - t.written))
        if n > 0 {
            let wrote = t.file.write(frames, count: n)
            t.written += Int64(wrote)
            tail = t
            guard wrote == n else { return fail("\(t.file.path): write failed: \(t.file.lastError)") }
            t.file.keepSpaceReserved()
        }
        return t.written < t.length ? true : closeTail()
    }

    /// Closes the tail's file, if one is open, and tells the observer; false (and `failure`)
    /// if closing it failed.
    func closeTail() -> Bool {
        guard let t = tail else { return true }
        tail = nil
        let error = t.file.close()
        var record = t.record
        record.frames += t.written
        record.sharedFrames += t.written
        record.endFrame = timelineFrame(segmentFileFrame: t.ownEnd + t.written)
        record.ok = error == nil
        record.companionTicket = companion?.fileEnded(record)
        observer?.fileClosed(record)
        if let error { return fail("\(t.file.path): closing failed: \(error)") }
        return true
    }
}
