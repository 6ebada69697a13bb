import Foundation
@testable import JackwaveCLI
import Testing

/// `man jackwave` is generated from the declarations: it lists exactly the options each
/// command's `--help` lists, under that command's section.
@Suite("Man page")
struct ManPageTests {
    static let page = ManPage.render(Jackwave.documentedCommands, version: Jackwave.version)

    @Test("every option in a command's --help is in its man page section, and the other way round",
          arguments: DeclaredCommand.all)
    func sameOptionsAsHelp(command: DeclaredCommand) {
        let section = command.name == "jackwave" ? "OPTIONS" : String(command.name.dropFirst("jackwave ".count)).uppercased()
        #expect(Self.manOptions(in: section) == Self.helpOptions(command.help), "\(section)")
    }

    @Test("the man page has the sections the issue asks for")
    func sections() {
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "PLOT", "LEVELS", "LOUDNESS",
                        "EXIT STATUS", "ENVIRONMENT", "FILES", "EXAMPLES", "SEE ALSO"] {
            #expect(Self.page.contains("\n.SH \(section)\n"), "\(section)")
        }
        #expect(Self.page.contains("JACK_DEFAULT_SERVER") && Self.page.contains("NO_COLOR"))
    }

    @Test("roff escapes dashes and backslashes, and a leading dot cannot start a request")
    func escaping() {
        #expect(ManPage.text(#"--a\b"#) == #"\-\-a\eb"#)
        #expect(ManPage.text(".x") == #"\&.x"#)
    }

    /// The spellings in `--help`'s rows (`  -c, --channels N   …`), but not the rows of
    /// plot's section that the main help borrows (plot's own help has them).
    static func helpOptions(_ help: String) -> Set<String> {
        var names: Set<String> = []
        for block in help.components(separatedBy: "\n\n") where !block.hasPrefix("Plot (") {
            for line in block.split(separator: "\n") where line.hasPrefix("  -") {
                // The label fills the columns before the help (column 25), one space at least after it.
                let label = line.dropFirst(2).prefix(22).trimmingCharacters(in: .whitespaces)
                for spelling in label.components(separatedBy: ", ") {
                    names.insert(spelling.components(separatedBy: " ")[0])
                }
            }
        }
        return names
    }

    /// The spellings on the `.TP` tag lines of one `.SH` section (`\fB\-c\fR, \fB\-\-channels\fR …`).
    static func manOptions(in section: String) -> Set<String> {
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(of: ".SH \(section)") else { return [] }
        let end = lines[(start + 1)...].firstIndex { $0.hasPrefix(".SH ") } ?? lines.count
        var names: Set<String> = []
        for i in (start + 1)..<end where lines[i - 1] == ".TP" && lines[i].hasPrefix(#"\fB\-"#) {
            for part in lines[i].components(separatedBy: #"\fB"#).dropFirst() {
                names.insert(part.components(separatedBy: #"\fR"#)[0].replacingOccurrences(of: #"\-"#, with: "-"))
            }
        }
        return names
    }
}
