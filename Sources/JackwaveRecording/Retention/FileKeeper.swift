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
/// Each deletion is a line and a `file_deleted` event (which `--on-event` is handed); so,
/// once a run, is the wall clock's word held back (`retention_held`). A problem with the
/// manifest is a line; the recording goes on.
package final class FileKeeper: @unchecked Sendable {
    let retention: Retention
    private let messages: MessageQueue
    private let events: EventLog?
    /// Whether the clock's hold (`Retention.clockHold`) has been said this run: once, from
    /// whichever thread prunes first (relaxed: the flag guards nothing else).
    private let holdSaid = Atomic<Bool>(false)

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
        do throws(RetentionError) { try retention.record(file) } catch {
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
        do throws(RetentionError) { try retention.replaced(relative(path), by: identity) } catch {
            messages.post("retention: \(path) rewritten, but its listing was not updated (\(error.message)); it will not be deleted")
        }
    }

    /// `--on-close` has run for `path`.
    package func hookRan(_ path: String) {
        retention.release(relative(path))
    }

    /// Deletes what the limits no longer allow: a line and an event (at `frame`) each; a
    /// failure is a line.
    package func prune(frame: Int64) {
        do throws(RetentionError) {
            for deletion in try retention.prune() {
                messages.post(Phrase(verbatim: deletion.line))
                events?.emit(.fileDeleted, frame: frame, deletion.fields)
            }
        } catch {
            messages.post("retention: \(error.message)")
        }
        if let newest = retention.clockHold, let limit = retention.limits.seconds,
           holdSaid.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged {
            messages.post("retention: the wall clock says every earlier file is past \(setting: .keep) (the newest last written \(String(printf: "%.1f", newest / 86400)) days ago): none goes by age until this run has lasted \(String(printf: "%.1f", limit / 86400)) days; \(setting: .keepSpace) still applies")
            events?.emit(.retentionHeld, frame: frame, [("newest_age_seconds", .double(newest)), ("keep_seconds", .double(limit))])
        }
    }

    /// `path` relative to the retention's folder, as the manifest lists it.
    private func relative(_ path: String) -> String {
        let root = retention.root
        if root == "." || root.isEmpty { return path.hasPrefix("./") ? String(path.dropFirst(2)) : path }
        let prefix = root.hasSuffix("/") ? root : root + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}

extension RetentionDeletion {
    /// Its `file_deleted` event's fields: `path`, `bytes`, `reason` (`age` or `space`).
    var fields: [(String, EventLog.Value)] {
        let reason: String = switch self.reason {
        case .age: "age"
        case .space: "space"
        }
        return [("path", .string(path)), ("bytes", .int(bytes)), ("reason", .string(reason))]
    }
}
