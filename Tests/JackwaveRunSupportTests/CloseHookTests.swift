import Foundation
@testable import JackwaveRunSupport
import JackwaveTestSupport
import Synchronization
import Testing

/// `--on-close`'s queue has a bound: a command that hangs (no `--on-close-timeout`) holds its
/// queue, and the files past the bound get no command, said, and retention is told.
@Suite("Close hook")
struct CloseHookTests {
    @Test("past its bound a file gets no command: a line, and retention is told it is done with; the queue never grows past the bound")
    func queueIsBounded() throws {
        let told = Mutex<[String]>([])
        let hook = CloseHook(command: "exec sleep 1000 #", events: nil, ran: { path in told.withLock { $0.append(path) } })
        hook.start()
        let paths = (0...CloseHook.queueLimit + 1).map { "/nowhere/take-\($0).wav" }
        for path in paths { hook.fileClosed(path, frame: 0) }
        // The first is taken by the hook's thread (running, hung), `queueLimit` wait; the last
        // found the queue full, unless the thread had not yet taken the first.
        let said = hook.messages.drain().map(\.plain)
        let refused = said.filter { $0.contains("files were waiting for the command; not run for this one") }
        #expect(refused.count == 1 || refused.count == 2, "\(said.prefix(3))")
        #expect(refused.allSatisfy { $0.hasSuffix(": \(paths.last!) (recording goes on)") || $0.hasSuffix(": \(paths[paths.count - 2]) (recording goes on)") })
        #expect(told.withLock { $0 }.count == refused.count)
        hook.stopRunning()
        hook.finish()
        #expect(told.withLock { $0 }.count == paths.count, "every file is told done with, run or not")
    }
}
