/// `jackwave.1`, the man page, in roff (the `man` macros): every command's usage, options
/// and notes come from the same declarations as its `--help`; only the prose around them
/// (`ManPage+Prose`) is the man page's own. Printed by the hidden `jackwave --man`.
enum ManPage {
    static func render(_ commands: [DocumentedCommand], version: String) -> String {
        var lines = [
            #".TH JACKWAVE 1 "" "jackwave \#(version)" "User Commands""#,
            ".SH NAME",
            #"jackwave \- record, play tones and meter levels on a JACK server"#,
            ".SH SYNOPSIS",
            ".nf",
        ]
        // The main command's usage names every subcommand too.
        lines += (commands.first?.usage ?? []).map(text)
        lines += [".fi", ".SH DESCRIPTION"] + paragraphs(description)
        for command in commands {
            lines += commandSection(command)
        }
        lines += [".SH EXIT STATUS"] + paragraphs(exitStatus)
        lines += [".SH ENVIRONMENT"] + terms(environment)
        lines += [".SH FILES"] + terms(files)
        lines += [".SH EXAMPLES"] + examples.flatMap { [".PP", text($0.what), ".RS", ".nf", text($0.command), ".fi", ".RE"] }
        lines += [".SH SEE ALSO", seeAlso.map { #"\fB\#($0.name)\fR(\#($0.section))"# }.joined(separator: ", ")]
        return lines.joined(separator: "\n") + "\n"
    }

    /// The main command's sections become `OPTIONS` (one subsection each); a subcommand gets
    /// a section of its own (`PLOT`) with its usage, argument, options and footer.
    static func commandSection(_ command: DocumentedCommand) -> [String] {
        var lines: [String]
        if let sub = command.subcommand {
            lines = [".SH \(sub.uppercased())", ".PP", text(command.summary), ".PP", ".nf"]
                + command.usage.map(text) + [".fi"]
        } else {
            lines = [".SH OPTIONS"]
        }
        if let argument = command.argument {
            lines += [".TP", #"\fI\#(text(argument.placeholder))\fR"#, text(argument.help.joined(separator: " "))]
        }
        for section in command.sections {
            if command.subcommand == nil { lines.append(".SS \(text(section.title))") }
            for option in section.options {
                lines += [".TP", label(option), text(option.help.joined(separator: " "))]
            }
            if !section.notes.isEmpty { lines += [".PP", text(section.notes.joined(separator: " "))] }
        }
        if !command.footer.isEmpty { lines += [".PP", text(command.footer.joined(separator: " "))] }
        return lines
    }

    /// `\fB\-c\fR, \fB\-\-channels\fR \fIN\fR`: spellings bold, the placeholder italic.
    static func label(_ option: DocumentedCommand.Option) -> String {
        option.names.map { #"\fB\#(text($0))\fR"# }.joined(separator: ", ")
            + (option.placeholder.map { #" \fI\#(text($0))\fR"# } ?? "")
    }

    /// Prose as roff paragraphs, one `.PP` each.
    static func paragraphs(_ paragraphs: [String]) -> [String] {
        paragraphs.flatMap { [".PP", text($0)] }
    }

    /// Name and meaning pairs as tagged paragraphs.
    static func terms(_ terms: [(term: String, meaning: String)]) -> [String] {
        terms.flatMap { [".TP", #"\fB\#(text($0.term))\fR"#, text($0.meaning)] }
    }

    /// `text` safe as roff input: backslashes and hyphens escaped (option dashes must be
    /// minus signs, to be searchable and copyable), and a leading `.` or `'` kept from
    /// being read as a request.
    static func text(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "\\": out += #"\e"#
            case "-": out += #"\-"#
            default: out.append(character)
            }
        }
        if out.hasPrefix(".") || out.hasPrefix("'") { out = #"\&"# + out }
        return out
    }
}
