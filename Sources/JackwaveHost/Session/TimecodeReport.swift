import JackwaveRunSupport
import JackwaveVocabulary
import JackwaveTimecode

/// What a run says of its LTC input (`--ltc`): a line and an event for each lock, loss and
/// jump, and for a jump a marker at its frame, so that the file that spans it says so.
enum TimecodeReport {
    /// The follower's handler for one connection, whose frame 0 is `timelineBase`.
    static func handler(parts: SessionParts, timelineBase: Int64) -> @Sendable (LTCEvent) -> Void {
        let (messages, events, markers) = (parts.messages, parts.events, parts.markers)
        return { event in
            switch event {
            case let .locked(code, frame):
                messages.post("timecode: locked at \(code) (\(code.rate.name))")
                events?.emit(.timecodeLocked, frame: timelineBase + frame,
                             [("timecode", .string(code.description)), ("rate", .string(code.rate.ixmlRate)),
                              ("drop_frame", .bool(code.rate.isDropFrame))])
            case let .jump(from, to, frame):
                let marker = markers.drop(at: { timelineBase + frame })
                messages.post(Phrase(verbatim: "timecode: jumped from \(from) to \(to)" + (marker.map { "; marker \($0.number) there" } ?? "")))
                events?.emit(.timecodeJump, frame: timelineBase + frame,
                             [("from", .string(from.description)), ("to", .string(to.description))]
                                + (marker.map { [("marker", .int(Int64($0.number)))] } ?? []))
            case let .lost(last, frame):
                messages.post("timecode: lost after \(last); files begun until it locks again take the wall clock's time")
                events?.emit(.timecodeLost, frame: timelineBase + frame, [("last", .string(last.description))])
            }
        }
    }
}

extension TimecodeReport {
    /// The LTC input's state as the meter and `/jackwave/status` say it: the timecode last
    /// read or carried on (empty before any), and one word for the state.
    static func status(_ lock: LTCLock) -> (code: String, state: String, text: String) {
        switch lock {
        case .searching: return ("", "searching", "searching")
        case let .locked(code): return (code.description, "locked", "\(code) locked")
        case let .freewheeling(code, missing): return (code.description, "freewheeling", "\(code) freewheeling (\(missing) missing)")
        case let .lost(last): return (last.description, "lost", "lost (last \(last))")
        }
    }
}
