import Glibc
import JackwaveCLI

exit(Jackwave.main(Array(CommandLine.arguments.dropFirst()), executable: CommandLine.arguments.first ?? "jackwave"))
