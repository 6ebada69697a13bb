import JackwaveTestSupport

/// The frames at which a recorded `click` channel holds its clicks (samples of exactly 0.5).
func clicks(in recording: Recording, channel: Int) -> [Int] {
    guard channel < recording.channels else { return [] }
    return (0..<recording.frames).filter { recording[$0, channel] == 0.5 }
}
