import Glibc

/// The strings the kernel laid out when jackwave started, its arguments and its environment:
/// the memory `/proc/PID/cmdline` and `/proc/PID/environ` show, to every process of the same
/// user (a hook reaches its parent's through `$PPID`). `unsetenv` only takes a variable's
/// pointer out of `environ`; its bytes stay in that memory for as long as the process runs,
/// so a secret read from there is erased in place as well.
///
/// The block's bounds are the kernel's own (`/proc/self/stat`: `arg_start`, `arg_end`,
/// `env_start`, `env_end`), written to only where `/proc/self/maps` shows writable memory
/// around them. Without `/proc`, the variable's strings that `environ` points at are erased.
public enum ProcessBlock {
    case arguments
    case environment

    /// Takes `name` out of the environment: every `NAME=value` string of the block
    /// overwritten with zero bytes (the variable's name too), and `unsetenv`. Returns how
    /// many strings were erased. Call before any thread that reads the environment starts.
    @discardableResult
    public static func removeVariable(_ name: String) -> Int {
        let prefix = Array((name + "=").utf8)
        // The strings environ points at: the block's, or copies a setenv made.
        var pointed: [UnsafeMutablePointer<CChar>] = []
        // `environ` is null after a `clearenv`, which Swift's type for it does not show.
        if Int(bitPattern: environ) != 0, var entry = Optional(environ) {
            while let string = entry.pointee {
                if strncmp(string, name + "=", prefix.count) == 0 { pointed.append(string) }
                entry += 1
            }
        }
        unsetenv(name)
        var erased = 0
        for string in pointed {
            memset(string, 0, strlen(string))
            erased += 1
        }
        ProcessBlock.environment.withWritableBytes { block in
            erased += erase(in: block) { $0.starts(with: prefix) ? 0..<$0.count : nil }
        }
        return erased
    }

    /// Overwrites with `*` the password of every URL argument that holds one
    /// (`scheme://user:PASSWORD@host…`), keeping its length. Returns how many.
    @discardableResult
    public static func maskURLPasswords() -> Int {
        var masked = 0
        ProcessBlock.arguments.withWritableBytes { block in
            masked = erase(in: block, with: UInt8(ascii: "*")) { Self.urlPassword(in: $0) }
        }
        return masked
    }

    /// Where the password is in `argument`, if it is a URL with one.
    static func urlPassword(in argument: UnsafeMutableBufferPointer<UInt8>) -> Range<Int>? {
        let bytes = Array(argument)
        guard let scheme = bytes.firstRange(of: Array("://".utf8)) else { return nil }
        let authority = bytes[scheme.upperBound...].prefix { $0 != UInt8(ascii: "/") }
        guard let at = authority.lastIndex(of: UInt8(ascii: "@")),
              let colon = authority[..<at].firstIndex(of: UInt8(ascii: ":")), colon + 1 < at else { return nil }
        return (colon + 1)..<at
    }

    /// Overwrites, in each NUL-ended string of `block`, the bytes `select` names; the number
    /// of strings changed.
    private static func erase(in block: UnsafeMutableBufferPointer<UInt8>, with byte: UInt8 = 0,
                              _ select: (UnsafeMutableBufferPointer<UInt8>) -> Range<Int>?) -> Int {
        var changed = 0
        var start = 0
        while start < block.count {
            var end = start
            while end < block.count && block[end] != 0 { end += 1 }
            let string = UnsafeMutableBufferPointer(rebasing: block[start..<end])
            if let range = select(string), !range.isEmpty {
                for i in range { string[i] = byte }
                changed += 1
            }
            start = end + 1
        }
        return changed
    }

    /// Calls `body` with the block as the kernel placed it, if its bounds can be read and
    /// all of it lies in writable memory; else not at all.
    private func withWritableBytes(_ body: (UnsafeMutableBufferPointer<UInt8>) -> Void) {
        guard let (start, end) = Self.bounds(self), start < end, end - start <= 1 << 24,
              Self.isWritable(start..<end), let base = UnsafeMutablePointer<UInt8>(bitPattern: start) else { return }
        body(UnsafeMutableBufferPointer(start: base, count: Int(end - start)))
    }

    /// `arg_start`/`arg_end` or `env_start`/`env_end`: fields 48 to 51 of `/proc/self/stat`
    /// (counted after the command's name, which may hold blanks and parentheses).
    static func bounds(_ block: ProcessBlock) -> (UInt, UInt)? {
        guard let text = ProcFile.read("/proc/self/stat"), let close = text.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        let fields = text[(close + 1)...].split(separator: UInt8(ascii: " ")).map { String(decoding: $0, as: UTF8.self) }
        // fields[0] is field 3 (the state).
        let first = block == .arguments ? 48 - 3 : 50 - 3
        guard fields.count > first + 1, let start = UInt(fields[first]), let end = UInt(fields[first + 1]) else { return nil }
        return (start, end)
    }

    /// Whether `range` lies inside one writable mapping (`/proc/self/maps`).
    static func isWritable(_ range: Range<UInt>) -> Bool {
        guard let text = ProcFile.read("/proc/self/maps") else { return false }
        for line in text.split(separator: UInt8(ascii: "\n")) {
            let parts = line.split(separator: UInt8(ascii: " "), maxSplits: 2)
            guard parts.count >= 2 else { continue }
            let span = parts[0].split(separator: UInt8(ascii: "-"))
            guard span.count == 2, let low = UInt(String(decoding: span[0], as: UTF8.self), radix: 16),
                  let high = UInt(String(decoding: span[1], as: UTF8.self), radix: 16) else { continue }
            if low <= range.lowerBound && range.upperBound <= high { return parts[1].dropFirst().first == UInt8(ascii: "w") }
        }
        return false
    }
}
