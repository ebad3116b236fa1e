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

    // Unconditional, so "--width -1" reaches validate() instead of reading as a missing value.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Lay output out for this many columns instead of the terminal's width.", valueName: "n"))
    var width: Int?

    @Flag(help: "Draw with ASCII instead of box-drawing characters (automatic when the locale is not UTF-8).")
    var ascii = false

    @Flag(name: .shortAndLong, help: "Log diagnostics to stderr.")
    var verbose = false

    func validate() throws {
        if let width, width < 20 {
            throw ValidationError("--width must be at least 20.")
        }
    }
}

extension GlobalOptions {
    /// Global options that take a value, and flags, as they may appear before the subcommand.
    static let valueOptions: Set<String> = ["--home", "--account", "--color", "--width"]
    static let flagOptions: Set<String> = ["--verbose", "-v", "--ascii"]
    /// Commands whose subcommands take the global options themselves.
    static let nestedSubcommands: [String: Set<String>] = ["pending": ["list", "run", "retry", "dismiss"]]

    /// Moves global options written before the subcommand (`chatmail --home DIR show alice`) to just
    /// after it, where ArgumentParser looks for them. Everything else keeps its order.
    static func movingGlobalsAfterSubcommand(_ arguments: [String]) -> [String] {
        var leading: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            if valueOptions.contains(name) {
                leading.append(argument)
                if !argument.contains("="), index + 1 < arguments.count {
                    leading.append(arguments[index + 1])
                    index += 1
                }
            } else if flagOptions.contains(argument) {
                leading.append(argument)
            } else {
                break
            }
            index += 1
        }
        guard !leading.isEmpty, index < arguments.count else { return arguments }
        // arguments[index] is the subcommand (with its own subcommand, for `pending list`); its own
        // arguments follow the moved globals.
        var path = [arguments[index]]
        if index + 1 < arguments.count, nestedSubcommands[arguments[index]]?.contains(arguments[index + 1]) == true {
            path.append(arguments[index + 1])
            index += 1
        }
        return path + leading + arguments[(index + 1)...]
    }
}
