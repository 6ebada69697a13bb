/// What takes the frames a recording's writer takes from the audio ring, beside the files:
/// the live loudness, the stream, the alarms, the dropout detection. The session plugs each
/// in; the writer hands every region to each in turn, on its own thread, and names none of
/// them, so that a new consumer plugs in without the writer changing. A sink must not make
/// the writer wait: it copies and returns, or drops and counts.
package protocol FrameSink: AnyObject {
    /// `count` interleaved frames from `frames`, the first at `frame` on the run's timeline.
    func take(_ frames: UnsafePointer<Float>, count: Int, at frame: Int64)
    /// `count` frames of silence, from `frame` on, that the writer put in the file where the
    /// callback had to drop frames: not the source's.
    func takeSilence(count: Int, at frame: Int64)
}
