import Foundation
import Glibc
@testable import JackwaveRunSupport
import JackwaveTestSupport
import Synchronization
import Testing

/// `BoundedWriter`, what the level stream and the events file leave through: whoever writes
/// never waits for the reader or the disk; lines past the bound are dropped whole, counted
/// and told; a write error is told once and ends the output.
@Suite("Bounded writer")
struct BoundedWriterTests {
    /// What a writer told, in order (any thread).
    final class Told: @unchecked Sendable {
        private let list = Mutex<[BoundedWriter.Report]>([])
        func add(_ report: BoundedWriter.Report) { list.withLock { $0.append(report) } }
        var reports: [BoundedWriter.Report] { list.withLock { $0 } }
        var droppedSum: Int {
            reports.reduce(0) { sum, report in if case let .dropped(lines) = report { sum + lines } else { sum } }
        }
    }

    /// Line `n`, 100 bytes with its newline, numbered so that a cut or a reordering shows.
    static func line(_ n: Int) -> [UInt8] { Array(String(format: "line %06d ", n).utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: 87) + [10] }

    /// Runs `body` on a thread of its own; true if it ended within `timeout` seconds (a
    /// `write` that waited for a reader that never reads would never end).
    static func ends(within timeout: Double, _ body: @escaping @Sendable () -> Void) -> Bool {
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            body()
            done.signal()
        }
        return done.wait(timeout: .now() + timeout) == .success
    }

    /// A pipe: (read end, write end).
    static func pipe() throws -> (Int32, Int32) {
        var fds: [Int32] = [0, 0]
        guard Glibc.pipe(&fds) == 0 else { throw TestFailure("pipe failed") }
        return (fds[0], fds[1])
    }

    /// Everything readable from `fd` until its end.
    static func readAll(_ fd: Int32) -> [UInt8] {
        var out: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return out }
            out += buffer[0..<n]
        }
    }

    @Test("lines reach the file whole and in order, and close leaves everything written")
    func linesInOrder() throws {
        let path = temporaryDirectory() + "/out.txt"
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        try #require(fd >= 0)
        let told = Told()
        let writer = BoundedWriter(descriptor: fd, ownsDescriptor: true, threadName: "test-out", report: told.add)
        for n in 0..<1000 { #expect(writer.write(Self.line(n))) }
        #expect(writer.close())
        let expected = (0..<1000).flatMap(Self.line)
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: path))) == expected)
        #expect(told.reports.isEmpty && writer.droppedLines == 0 && writer.failure == nil)
    }

    @Test("a reader that stops reading never makes a write wait: lines past the bound are dropped whole, counted and told, and the rest arrive in order once it reads again")
    func stalledReaderDropsWholeLines() throws {
        let (readEnd, writeEnd) = try Self.pipe()
        defer { close(readEnd) }
        let told = Told()
        let writer = BoundedWriter(descriptor: writeEnd, ownsDescriptor: true, threadName: "test-out", capacity: 4096,
                                   report: told.add)
        // 3000 lines (300 KB) into a pipe nobody reads yet (64 KiB) behind a 4 KiB queue.
        let total = 3000
        #expect(Self.ends(within: 30) { for n in 0..<total { writer.write(Self.line(n)) } }, "a write waited for the reader")
        #expect(writer.droppedLines > 0)
        #expect(told.reports.contains(.dropping))
        // Now the reader reads to the end (close ends the thread, which closes the pipe).
        let received = Mutex<[UInt8]>([])
        let reading = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let bytes = Self.readAll(readEnd)
            received.withLock { $0 = bytes }
            reading.signal()
        }
        #expect(writer.close(timeout: 30))
        try #require(reading.wait(timeout: .now() + 30) == .success, "the pipe did not end")
        let bytes = received.withLock { $0 }
        // Whole lines, each one of those written, in order: nothing cut, nothing repeated.
        try #require(bytes.count % 100 == 0, "\(bytes.count) bytes: a line was cut")
        let numbers = stride(from: 0, to: bytes.count, by: 100).map { start in
            Int(String(decoding: bytes[(start + 5)..<(start + 11)], as: UTF8.self)) ?? -1
        }
        #expect(zip(numbers, numbers.dropFirst()).allSatisfy { $0 < $1 })
        #expect(stride(from: 0, to: bytes.count, by: 100).allSatisfy { Array(bytes[$0..<($0 + 100)]) == numbers.element(at: $0 / 100).map(Self.line) })
        #expect(numbers.count + writer.droppedLines == total, "\(numbers.count) arrived, \(writer.droppedLines) dropped")
        #expect(told.droppedSum == writer.droppedLines, "\(told.reports)")
        #expect(told.reports.filter { $0 == .dropping }.count == told.reports.filter { if case .dropped = $0 { true } else { false } }.count)
    }

    @Test("close waits its bound for a reader that never reads, no more, and counts what was left as dropped")
    func closeIsBounded() throws {
        // Both ends stay open: the writer's thread stays blocked in write(2) for the rest of
        // the process, as it would in jackwave until the exit (a closed read end would
        // raise SIGPIPE, which the test process does not ignore).
        let (_, writeEnd) = try Self.pipe()
        let told = Told()
        let writer = BoundedWriter(descriptor: writeEnd, ownsDescriptor: false, threadName: "test-out", capacity: 4096,
                                   report: told.add)
        for n in 0..<2000 { writer.write(Self.line(n)) }
        let closed = Mutex<Bool?>(nil)
        #expect(Self.ends(within: 30) { closed.withLock { $0 = writer.close(timeout: 0.2) } }, "close did not return")
        #expect(closed.withLock { $0 } == false)
        #expect(writer.droppedLines > 0)
        #expect(told.droppedSum == writer.droppedLines, "\(told.reports)")
    }

    @Test("a write error is told once, with its reason, and nothing is written after it")
    func writeErrorToldOnce() throws {
        let fd = open("/dev/full", O_WRONLY)
        try #require(fd >= 0)
        let told = Told()
        let writer = BoundedWriter(descriptor: fd, ownsDescriptor: true, threadName: "test-out", report: told.add)
        writer.write(Self.line(0))
        #expect(writer.flush(timeout: 30))
        #expect(writer.failure == "No space left on device")
        #expect(!writer.write(Self.line(1)))
        #expect(!writer.close())
        #expect(told.reports == [.failed("No space left on device")])
    }
}
