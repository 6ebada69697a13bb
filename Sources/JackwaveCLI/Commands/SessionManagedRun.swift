import Glibc
import JackwaveHost
import JackwaveNSM
import JackwaveRunSupport

/// `jackwave` started by a session manager: `NSM_URL` in its environment, no arguments.
///
/// It announces itself and registers nothing with JACK until the manager opens it. The open
/// names the folder that holds its settings (`jackwave.args`, written with the defaults on
/// the first open) and its files, and the JACK client's name. The run is then the one those
/// settings describe, with the session's rules on top (`RunOptions.Managed`): the client
/// named as the session says, every file inside the folder and numbered, so that each open
/// records into the next one, and no meter or keys on a terminal that is the manager's.
/// SIGTERM, the manager's quit, ends it as Ctrl-C does: the files finalized.
enum SessionManagedRun {
    /// What a new client records: two inputs into numbered files, connected by the session.
    static let defaultSettings = """
        # jackwave's settings in this session: one argument per line, as for --arguments.
        # Every file stays in this folder. Edit this file, then reopen the session.
        #
        # Record in_1 and in_2 into take-001.wav, take-002.wav, ... (a file per open).
        --record
        take.wav
        --channels
        2
        # The session's connections are restored by jackpatch: connect nothing here.
        --manual

        """

    /// How long the manager may take to welcome the announce.
    static let welcomeTimeout = 10.0

    static func run(url: String, executable: String) -> Int32 {
        // Before the listener's thread exists, which must inherit interrupts held.
        SignalTrap.install()
        let client: NSMClient
        do throws(NSMClientError) { client = try NSMClient(url: url) } catch {
            Console.error(error.message)
            return 2
        }
        // Before the announce, while the manager is surely the one on its port.
        let watch = NSMManagerWatch(manager: client.manager)
        guard client.announce(executable: executable) else {
            Console.error("cannot reach the session manager at \(url)")
            return 1
        }
        guard var open = waitForOpen(client, watch: watch, url: url) else { return SignalTrap.count > 0 ? 0 : 1 }
        // One run per open: a switch (a second open while running) ends the run, files
        // finalized, and the next begins in the new folder as the new client.
        while true {
            let (code, next) = runOpen(open, client: client, watch: watch)
            // Held from here to the next run's start, so that a SIGTERM in between stays
            // pending and reaches that run; one that came before the hold is counted here.
            SignalTrap.holdOnMainThread()
            guard let next, SignalTrap.count <= 1 else { return code }
            open = next
        }
    }

    /// The run `open` describes, to its end: its exit code, and the open that switched
    /// jackwave away from it, if one did.
    private static func runOpen(_ open: NSMOpen, client: NSMClient, watch: NSMManagerWatch) -> (Int32, NSMOpen?) {
        let settings: [String]
        let project: NSMProject
        do throws(NSMClientError) {
            project = try NSMProject(opening: open.path, defaults: defaultSettings)
        } catch {
            return (refuse(client, .createFailed, error.message, exitCode: 1), nil)
        }
        if project.createdSettings { Console.say("a new client of the session: its settings are \(project.settingsPath)") }
        var options: RunOptions
        do throws(UsageError) {
            settings = try ArgumentsFile.read(project.settingsPath)
            options = try RunOptionsParser.parse(settings)
            guard options.jack.clientName == RunOptions().jack.clientName else {
                throw UsageError("\(project.settingsPath): the session names the JACK client (\(open.clientID)); remove \(setting: .clientName) from it")
            }
            options.jack.clientName = open.clientID
            options.managed.folder = project.folder
            options.levels.meter = options.levels.meter ?? false
            try options.validate()
        } catch {
            return (refuse(client, .badProject, "\(project.settingsPath): \(error.message.line)", exitCode: 2), nil)
        }
        // Relative paths in the settings are the folder's.
        guard chdir(project.folder) == 0 else {
            return (refuse(client, .createFailed, "cannot enter \(project.folder): \(String(cString: strerror(errno)))", exitCode: 1), nil)
        }
        var nsm: NSMFrontEnd?
        let code = RunCommand.run(options) { terminal in
            let frontEnd = NSMFrontEnd(terminal, client: client, watch: watch, render: { $0.line },
                                       requestStop: { SignalTrap.interruptFromRemote() })
            nsm = frontEnd
            return frontEnd
        }
        nsm?.finish(exitCode: code)
        return (code, nsm?.switchTo)
    }

    /// Waits for the welcome (at most `welcomeTimeout`), then for the open, as long as it
    /// takes; nil once interrupted (SIGTERM: the manager gave up), refused, or the manager
    /// gone (then nothing from its address is taken for its own).
    private static func waitForOpen(_ client: NSMClient, watch: NSMManagerWatch, url: String) -> NSMOpen? {
        let started = monotonicSeconds()
        var welcomed = false
        while SignalTrap.count == 0 {
            let requests = client.requests()
            if watch.check(sockets: !requests.isEmpty) != nil {
                Console.error("the session manager at \(url) is gone before it opened jackwave")
                return nil
            }
            for request in requests {
                switch request {
                case let .welcomed(manager):
                    welcomed = true
                    Console.say("in a session of \(manager) (\(url)); waiting to be opened")
                case let .refused(why):
                    Console.error("the session manager at \(url) refused jackwave: \(why)")
                    return nil
                case let .open(open):
                    return open
                case .save:
                    client.fail("/nsm/client/save", .notNow, "nothing is open yet")
                case .sessionIsLoaded:
                    break
                }
            }
            if !welcomed && monotonicSeconds() - started > welcomeTimeout {
                Console.error("no answer from the session manager at \(url) in \(Int(welcomeTimeout)) s")
                return nil
            }
            SignalTrap.receiveOnMainThread()
            usleep(10_000)
            SignalTrap.holdOnMainThread()
        }
        return nil
    }

    /// Answers the open with an error, says it, and returns `exitCode`.
    private static func refuse(_ client: NSMClient, _ code: NSMErrorCode, _ message: String, exitCode: Int32) -> Int32 {
        Console.error(message)
        client.fail("/nsm/client/open", code, message)
        return exitCode
    }

    private static func monotonicSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
