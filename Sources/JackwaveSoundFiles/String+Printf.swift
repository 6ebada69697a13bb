import Glibc
import JackwaveVocabulary

extension String {
    /// `vsnprintf`: C's formatting of numbers with a fixed number of decimals (`%.3f`), in
    /// place of Foundation's `String(format:)`, which would link all of Foundation (its
    /// CoreFoundation and ICU) into the binary for a handful of messages.
    public init(printf format: String, _ arguments: CVarArg...) {
        self.init(printf: format, arguments: arguments)
    }

    init(printf format: String, arguments: [CVarArg]) {
        var buffer = [CChar](repeating: 0, count: 128)
        let needed = Int(withVaList(arguments) { vsnprintf(&buffer, buffer.count, format, $0) })
        if needed >= buffer.count {
            // A va_list is spent once read: a fresh one for the second pass.
            buffer = [CChar](repeating: 0, count: needed + 1)
            _ = withVaList(arguments) { vsnprintf(&buffer, buffer.count, format, $0) }
        }
        self = String(cString: buffer)
    }
}

extension Phrase {
    /// A phrase of `printf`-formatted text alone (as `String(printf:)`).
    public init(printf format: String, _ arguments: CVarArg...) {
        self.init(verbatim: String(printf: format, arguments: arguments))
    }
}
