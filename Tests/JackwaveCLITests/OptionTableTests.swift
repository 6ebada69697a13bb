@testable import JackwaveCLI
import Testing

/// The declarations and what is made of them agree: every option is in its command's help,
/// every option in a help is declared and parses, no spelling is declared twice.
@Suite("Option tables")
struct OptionTableTests {
    /// Values that some option of each kind takes; every option must take one of them.
    static let ordinaryValues = ["1", "16", "1000", "wav", "csv", "x.wav", "-23", "192.0.2.0/24",
                                 // the station logger's: a stream, a period, an age, a size, a silence
                                 "icecast://h/a.ogg", "1h", "30d", "50G", "-50dB:30s"]

    @Test("every declared option has a row of its own in its command's --help", arguments: DeclaredCommand.all)
    func declaredOptionsInHelp(command: DeclaredCommand) {
        let lines = command.help.split(separator: "\n", omittingEmptySubsequences: false)
        for option in command.options {
            #expect(lines.contains { $0 == "  " + option.label || $0.hasPrefix("  " + option.label + " ") },
                    "\(option.label) is not in \(command.name) --help")
        }
    }

    @Test("no spelling is declared twice in a command's table", arguments: DeclaredCommand.all)
    func uniqueNames(command: DeclaredCommand) {
        let names = command.options.flatMap(\.names)
        #expect(Set(names).count == names.count, "\(names)")
    }

    @Test("every option needed by another is declared, by its long name", arguments: DeclaredCommand.all)
    func needsAreDeclared(command: DeclaredCommand) {
        for needed in command.needs {
            #expect(command.options.contains { $0.names.last == needed }, "\(needed)")
        }
    }

    @Test("every option in a command's --help is declared and parses with an ordinary value",
          arguments: DeclaredCommand.all)
    func helpOptionsParse(command: DeclaredCommand) throws {
        var checked = 0
        // The main help also lists plot's options, under plot's heading: plot's table has them.
        for block in command.help.components(separatedBy: "\n\n") where !block.hasPrefix("Plot (") {
            for line in block.split(separator: "\n") where line.hasPrefix("  -") {
                // The label fills the columns before the help (column 25), one space at least after it.
                let label = line.dropFirst(2).prefix(22).trimmingCharacters(in: .whitespaces)
                for name in label.split(separator: " ").map({ $0.trimmingCharacters(in: [","]) }) where name.hasPrefix("-") {
                    checked += 1
                    #expect(command.options.contains { $0.names.contains(name) },
                            "\(name) in \(command.name) --help is not declared")
                    try expectParses(name, in: command)
                }
            }
        }
        #expect(checked == command.options.flatMap(\.names).count)
    }

    /// `name` alone (a flag) or with one of the ordinary values is accepted by the parse loop.
    func expectParses(_ name: String, in command: DeclaredCommand) throws {
        if name == "--version" {
            #expect(command.parseLoop([name]) == "--version comes alone: jackwave --version")
            return
        }
        // Expanded by Jackwave.main when first (ArgumentsFileTests); refused anywhere else.
        if name == "--arguments" {
            #expect(command.parseLoop([name, "x.args"]) == "--arguments comes first: jackwave --arguments FILE [more options]")
            return
        }
        let option = try #require(command.options.first { $0.names.contains(name) })
        let takesValue = option.label.split(separator: " ").count > option.names.count
        let attempts = takesValue ? Self.ordinaryValues.map { [name, $0] } : [[name]]
        let refusals = attempts.map(command.parseLoop)
        #expect(refusals.contains { $0 == nil }, "\(name) in \(command.name): \(refusals)")
    }

    @Test("plot --help shows plot's usage and options, not the recording's")
    func plotHelp() {
        let help = HelpText.render(PlotCommand.commandLine)
        #expect(help.contains("\n  jackwave plot FILE -o OUT.png|svg"))
        for label in ["FILE", "-o, --output OUT", "--width PX", "--height PX", "--start SEC", "--end SEC", "--db", "--force",
                      "-h, --help"] {
            #expect(help.contains("\n  \(label) "), "\(label)")
        }
        for other in ["--record", "--tone", "--channels", "--bits", "--level-interval", "--block", "Ctrl-C"] {
            #expect(!help.contains(other), "\(other)")
        }
    }

    @Test("levels --help shows levels' options, not the recording's")
    func levelsHelp() {
        let help = HelpText.render(LevelsCommand.commandLine)
        for label in ["FILE", "--block N", "--level-interval MS", "-o, --output OUT", "--levels-format F", "--force"] {
            #expect(help.contains("\n  \(label) "), "\(label)")
        }
        for other in ["--record", "--tone", "--width", "Ctrl-C"] {
            #expect(!help.contains(other), "\(other)")
        }
    }

    @Test("loudness --help shows loudness' usage and options, not the recording's")
    func loudnessHelp() {
        let help = HelpText.render(LoudnessCommand.commandLine)
        #expect(help.contains("\n  jackwave loudness FILE... [--json]"))
        for label in ["FILE", "--json", "-h, --help"] {
            #expect(help.contains("\n  \(label) "), "\(label)")
        }
        for other in ["--record", "--tone", "--block", "--width", "Ctrl-C"] {
            #expect(!help.contains(other), "\(other)")
        }
    }

    @Test("jackwave --help keeps the usage of every command, plot's options and the notes")
    func mainHelp() {
        let help = Jackwave.help
        for fact in ["jackwave --record FILE [options]", "jackwave --tone HZ [options]", "jackwave [options]",
                     "jackwave plot FILE -o OUT.png|svg", "jackwave levels FILE [--block N] [-o OUT]",
                     "jackwave loudness FILE... [--json]",
                     "Plot (jackwave plot FILE -o OUT):", "--width PX", "Keys on a terminal: space pause",
                     "Exit codes: 0 done, 1 runtime failure, 2 bad usage.", "-h, --help", "--version", "--formats"] {
            #expect(help.contains(fact), "\(fact)")
        }
    }

    @Test("help rows: the help from column 25, a spelling too wide for its column on a line of its own")
    func rowLayout() {
        #expect(HelpText.row("-c, --channels N", ["input ports", "more"])
                == ["  -c, --channels N       input ports", String(repeating: " ", count: 25) + "more"])
        #expect(HelpText.row("--a-very-long-option-name X", ["help"])
                == ["  --a-very-long-option-name X", String(repeating: " ", count: 25) + "help"])
        for help in DeclaredCommand.all.map(\.help) {
            for line in help.split(separator: "\n") where line.hasPrefix("  -") || line.hasPrefix("  FILE") {
                let chars = Array(line)
                #expect(chars.count > 25 && chars[24] == " " && chars[25] != " ", "\(line)")
            }
        }
    }
}
