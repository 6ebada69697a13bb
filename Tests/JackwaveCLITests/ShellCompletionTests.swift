@testable import JackwaveCLI
import Testing

/// The completion scripts are generated from the declarations: every option is in each,
/// and every word a fixed-choice option offers is one it accepts.
@Suite("Shell completions")
struct ShellCompletionTests {
    @Test("every option of every command is offered by the completion script", arguments: ShellCompletion.allCases)
    func everyOption(shell: ShellCompletion) {
        let script = shell.render(Jackwave.documentedCommands)
        for command in Jackwave.documentedCommands {
            for name in command.options.flatMap(\.names) {
                let offered = switch shell {
                case .fish: script.contains(name.hasPrefix("--") ? " -l \(name.dropFirst(2)) " : " -s \(name.dropFirst()) ")
                case .zsh: script.contains("'\(name)[") || script.contains("'*\(name)[")
                case .bash: script.contains(" \(name) ") || script.contains("'\(name) ") || script.contains(" \(name)'")
                }
                #expect(offered, "\(command.name) \(name) in \(shell)")
            }
        }
    }

    @Test("every word a fixed-choice option offers is one its parser accepts", arguments: DeclaredCommand.all)
    func choicesParse(command: DeclaredCommand) throws {
        let documented = try #require(Jackwave.documentedCommands.first { $0.name == command.name })
        for option in documented.options {
            let name = try #require(option.names.first, "an option of \(command.name) without a name")
            for word in option.kind.choices {
                #expect(command.parseLoop([name, word]) == nil, "\(name) \(word)")
            }
        }
    }

    @Test("the port options complete JACK port names and --record sound files")
    func kinds() throws {
        let main = try #require(Jackwave.documentedCommands.first)
        let kinds = Dictionary(main.options.compactMap { o in o.names.last.map { ($0, o.kind) } }, uniquingKeysWith: { first, _ in first })
        #expect(kinds["--port"] == .port && kinds["--to"] == .port)
        #expect(kinds["--record"]?.fileExtensions.contains("flac") == true)
        #expect(kinds["--levels-format"]?.choices == ["csv", "jsonl"])
    }
}
