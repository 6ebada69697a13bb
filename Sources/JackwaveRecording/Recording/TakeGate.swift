/// What the writer asks of armed recording: which of the frames it takes go into takes.
/// `TakeController` (Takes/, which is built on the recording) answers; declaring the three
/// calls here keeps the recording from depending on what is built on it.
package protocol TakeGate: AnyObject {
    /// Frames from `from` on whose block records have arrived: the writer takes no audio
    /// beyond them.
    func coveredFrames(from: Int64) -> Int
    /// Takes `count` frames; false once a file could not be written.
    func push(_ frames: UnsafePointer<Float>, count: Int) -> Bool
    /// At the end of the connection; false if the file failed.
    func finish() -> Bool
}
