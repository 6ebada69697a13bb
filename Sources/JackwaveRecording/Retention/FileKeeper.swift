import FoundationEssentials
import JackwaveRunSupport
import JackwaveSoundFiles
import Synchronization
import JackwaveVocabulary

/// Retention in a run (`--keep`, `--keep-space`): the run's files listed as they are made,
/// kept from deletion while they are in use, and the oldest deleted when the limits say so.
///
/// - The writer lists each file it makes (`made`): from then on it is protected as the file
///   being written.
/// - The file finisher, once done with a closed file (its cues and picture written), queues
///   it for `--on-close` (protected again first, `protectForHook`, until the hook has run:
///   `hookRan`), lets go of the writer's protection, and prunes (`finished`): retention runs
///   on the finisher's thread, never the writer's or the realtime one.
/// - The session prunes once when the run starts, so that a service restarted after a long
///   stop catches up.
/// Each deletion is a line and a `file_deleted` event (which `--on-event` is handed), whatever
/// happens to the manifest after it. So, once a run, are the files held from before a
/// suspected clock step (`retention_held`) and the files that other links keep from counting.
/// What retention fails to do is a line and a `retention_failed` event, and the recording
/// goes on: a file it cannot delete (once a run for each), a manifest it cannot save (once
/// until it is saved again, which is said too).
package final class FileKeeper: @unchecked Sendable {
    let retention: Retention
    private let messages: MessageQueue
    private let events: EventLog?
    /// Whether the clock's hold (`Retention.clockHold`) has been said this run: once, from
    /// whichever thread prunes first (relaxed: the flag guards nothing else).
    private let holdSaid = Atomic<Bool>(false)
    /// Whether the files that other links keep from `--keep-space` have been said this run.
    private let linksSaid = Atomic<Bool>(false)
    /// Whether the last save of the manifest failed (said once, until one succeeds).
    private let unsaved = Atomic<Bool>(false)
    /// The files already said to be undeletable this run.
    private let undeletable = Mutex<Set<String>>([])
    /// The last frame a prune was told: for the events of what the writer's `made` finds.
    private let lastFrame = Atomic<Int64>(0)

    /// Retention of the files `naming`'s recording makes, listed in the folder of `path`
    /// under its name (`.jackwave-NAME.manifest`).
    package init(path: String, limits: RetentionLimits, messages: MessageQueue, events: EventLog?) throws(RetentionError) {
        self.messages = messages
        self.events = events
        let name = FileNames.stemAndExtension(FileNames.lastComponent(path)).stem
        // Deletions are reported from what `prune` returns, with the frame the run is at.
        retention = try Retention(root: FileNames.directory(path), name: name.isEmpty ? "recording" : name,
                                  limits: limits, onDelete: { _ in })
    }

    /// The writer has made `file` (before its first write): listed, protected while written.
    func made(_ file: ExclusiveFile) {
        do throws(RetentionError) {
            say(unsaved: try retention.record(file), frame: lastFrame.load(ordering: .relaxed))
        } catch {
            messages.post("retention: \(file.path) is not listed (\(error.message)); it will not be deleted")
        }
    }

    /// `path` is about to wait for `--on-close`: protected until `hookRan`.
    package func protectForHook(_ path: String) {
        retention.protect(relative(path))
    }

    /// The finisher is done with `path`: no longer protected as the file being written; then
    /// the oldest files go, their events at `frame` (the closed file's end on the timeline).
    package func finished(_ path: String, frame: Int64) {
        retention.release(relative(path))
        prune(frame: frame)
    }

    /// jackwave rewrote `path` (its cue points) into a new file, `identity`: still listed.
    package func rewritten(_ path: String, identity: FileIdentity) {
        do throws(RetentionError) {
            say(unsaved: try retention.replaced(relative(path), by: identity), frame: lastFrame.load(ordering: .relaxed))
        } catch {
            messages.post("retention: \(path) rewritten, but its listing was not updated (\(error.message)); it will not be deleted")
        }
    }

    /// `--on-close` has run for `path`.
    package func hookRan(_ path: String) {
        retention.release(relative(path))
    }

    /// Deletes what the limits no longer allow: a line and an event (at `frame`) for each
    /// deletion, and for what failed.
    package func prune(frame: Int64) {
        lastFrame.store(frame, ordering: .relaxed)
        let pass = retention.prune()
        for deletion in pass.deletions {
            messages.post(Phrase(verbatim: deletion.line))
            events?.emit(.fileDeleted, frame: frame, deletion.fields)
        }
        for (path, reason) in pass.failures where undeletable.withLock({ $0.insert(path).inserted }) {
            messages.post("retention: cannot delete \(path) (\(reason)); it stays listed, and is tried again at each file's end")
            events?.emit(.retentionFailed, frame: frame, [("path", .string(path)), ("reason", .string(reason))])
        }
        say(unsaved: pass.unsaved, frame: frame)
        if retention.limits.bytes != nil, pass.linked.files > 0,
           linksSaid.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged {
            let n = pass.linked.files
            messages.post("retention: \(n) of jackwave's files (\(RetentionDeletion.binary(pass.linked.bytes))) \(n == 1 ? "has" : "have") another link: deleting \(n == 1 ? "it" : "them") would free nothing, so \(setting: .keepSpace) neither counts nor deletes \(n == 1 ? "it" : "them")")
        }
        if let hold = retention.clockHold, let limit = retention.limits.seconds,
           holdSaid.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged {
            let n = hold.files
            messages.post("retention: \(n) file\(n == 1 ? "" : "s") held from before a suspected clock step (the wall clock, not believed about \(n == 1 ? "it" : "them"), says the newest was last written \(Self.days(hold.newestAge)) days ago): none goes by age until jackwave has run \(Self.days(limit)) days with \(n == 1 ? "it" : "them") held (\(Self.days(hold.seen)) so far, added up across runs); \(setting: .keepSpace) still applies")
            events?.emit(.retentionHeld, frame: frame, [("files", .int(Int64(n))), ("newest_age_seconds", .double(hold.newestAge)),
                                                         ("seen_seconds", .double(hold.seen)), ("keep_seconds", .double(limit))])
        }
    }

    /// A failed save of the manifest is a line and an event, once until a save succeeds
    /// again, which is said too.
    private func say(unsaved error: RetentionError?, frame: Int64) {
        if let error {
            guard !unsaved.exchange(true, ordering: .relaxed) else { return }
            messages.post("retention: the manifest cannot be saved (\(error.message)): what was deleted is said here; files listed since are known to this run only")
            events?.emit(.retentionFailed, frame: frame, [("reason", .string(error.message))])
        } else if unsaved.exchange(false, ordering: .relaxed) {
            messages.post("retention: the manifest is saved again")
        }
    }

    static func days(_ seconds: Double) -> String { String(printf: "%.1f", seconds / 86400) }

    /// `path` relative to the retention's folder, as the manifest lists it.
    private func relative(_ path: String) -> String {
        let root = retention.root
        if root == "." || root.isEmpty { return path.hasPrefix("./") ? String(path.dropFirst(2)) : path }
        let prefix = root.hasSuffix("/") ? root : root + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}

extension RetentionDeletion {
    /// Its `file_deleted` event's fields: `path`, `bytes`, `reason` (`age` or `space`), and
    /// `freed: false` when another link kept its bytes.
    var fields: [(String, EventLog.Value)] {
        let reason: String = switch self.reason {
        case .age: "age"
        case .space: "space"
        }
        var fields: [(String, EventLog.Value)] = [("path", .string(path)), ("bytes", .int(bytes)), ("reason", .string(reason))]
        if !freed { fields.append(("freed", .bool(false))) }
        return fields
    }
}
