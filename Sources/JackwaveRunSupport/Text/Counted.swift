/// "1 channel", "2 channels": a count and its noun, for the lines a run says.
package func counted(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
