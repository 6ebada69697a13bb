import JackwaveHost
import JackwaveRunSupport

extension RunOptionsParser {
    /// Which server, and the client's name on it.
    static let jack = OptionSection<RunOptions>("JACK", [
        Option("-n", "--name", value: "NAME", help: "client name (default jackwave)") { o, s throws(UsageError) in
            o.jack.clientName = try s.nonEmptyValue()
        },
        Option("-s", "--server", value: "NAME",
               help: "server (default $JACK_DEFAULT_SERVER, else the default)") { o, s throws(UsageError) in
            o.jack.server = try s.nonEmptyValue()
        },
    ])
}
