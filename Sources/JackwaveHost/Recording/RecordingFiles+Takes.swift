import FoundationEssentials
import JackwaveSoundFiles

extension RecordingFiles {
    /// Opens the next take's file: the first number after the last take's whose file does
    /// not exist (an existing file is never overwritten). `firstFrame` is the take's first
    /// frame on the run's timeline, pre-roll included: its `bext` time. Writer thread.
    func startTake(firstFrame: Int64) -> Bool {
        var number = lastTakeNumber + 1
        while FileManager.default.fileExists(atPath: spec.path(ofPiece: number)) { number += 1 }
        pieceNumber = number
        lastTakeNumber = number
        framesInPiece = 0
        takeStartFrame = firstFrame
        do throws(SoundFileError) {
            current = try open(piece: number)
            return true
        } catch {
            return fail(error.message)
        }
    }

    /// Closes the current take's file; returns its number, path and frames.
    func endTake() -> (number: Int, path: String, frames: Int64, ok: Bool) {
        let path = current?.path ?? spec.path(ofPiece: pieceNumber)
        let ok = close()
        let frames = framesInPiece
        framesBefore += framesInPiece
        framesInPiece = 0
        return (pieceNumber, path, frames, ok)
    }
}
