import ArgumentParser
import TerminalUI

extension ColorMode: ExpressibleByArgument {}

/// Options every command accepts.
struct GlobalOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The chatmail data directory.", discussion: "Default: $CHATMAIL_HOME, else $XDG_DATA_HOME/chatmail, else ~/.local/share/chatmail.", valueName: "dir"))
    var home: String?

    @Option(help: ArgumentHelp("The account to use, when there are several.", valueName: "email"))
    var account: String?

    @Option(help: "When to use colour: auto, always or never. NO_COLOR and TERM=dumb are respected.")
    var color: ColorMode = .auto

    @Option(help: ArgumentHelp("Lay output out for this many columns instead of the terminal's width.", valueName: "n"))
    var width: Int?

    @Flag(name: .shortAndLong, help: "Log diagnostics to stderr.")
    var verbose = false

    func validate() throws {
        if let width, width < 20 {
            throw ValidationError("--width must be at least 20.")
        }
    }
}
