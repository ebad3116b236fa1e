import ArgumentParser
import TerminalUI

extension ColorMode: ExpressibleByArgument {}

/// Options every command accepts.
struct GlobalOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The chatmail data directory.",
            discussion: "Default: $CHATMAIL_HOME, else $XDG_DATA_HOME/chatmail, else ~/.local/share/chatmail.",
            valueName: "dir"))
    var home: String?

    @Option(help: ArgumentHelp("The account to use, when there are several.", valueName: "email"))
    var account: String?

    @OptionGroup var output: OutputOptions

    var color: ColorMode? { output.color }
    var width: Int? { output.width }
    var ascii: Bool { output.ascii }
    var verbose: Bool { output.verbose }
}

extension GlobalOptions {
    /// The options of a command that reads no chatmail home (`view`, `sanitize`): only how it writes.
    init(output: OutputOptions) {
        self.init()
        home = nil
        account = nil
        self.output = output
    }
}

/// How a command writes its output, and the config file that holds defaults for it and for the rest;
/// every command accepts these, including those that read no chatmail home.
struct OutputOptions: ParsableArguments {
    @Option(
        name: .customLong("config"),
        help: ArgumentHelp(
            "Read settings from this file.",
            discussion:
                "Default: $XDG_CONFIG_HOME/chatmail/config.toml, else ~/.config/chatmail/config.toml (optional).",
            valueName: "file"))
    var configFile: String?

    // Optional, so that an explicit "--color auto" is told apart from no option, which leaves the choice
    // to NO_COLOR, TERM and the config file.
    @Option(help: "When to use colour: auto, always or never (default: auto). NO_COLOR and TERM=dumb are respected.")
    var color: ColorMode?

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
        if let width, width < ChatmailConfig.minimumWidth {
            throw ValidationError("--width must be at least \(ChatmailConfig.minimumWidth).")
        }
        if configFile?.isEmpty == true {
            throw ValidationError("--config needs a file name.")
        }
    }
}

extension GlobalOptions {
    /// Global options that take a value, and flags, as they may appear before the subcommand.
    static let valueOptions: Set<String> = ["--home", "--account", "--config", "--color", "--width"]
    static let flagOptions: Set<String> = ["--verbose", "-v", "--ascii"]
    /// Options that choose a chatmail home or account.
    static let homeOptions: Set<String> = ["--home", "--account"]
    /// Commands that read no chatmail home, so take only ``OutputOptions``.
    static let commandsWithoutHome: Set<String> = ["view", "sanitize"]
    /// Commands whose subcommands take the global options themselves.
    static let nestedSubcommands: [String: Set<String>] = [
        "pending": ["list", "run", "retry", "dismiss"],
        "rules": ["list", "add", "remove", "test", "export", "import"],
    ]

    /// Moves global options written before the subcommand (`chatmail --home DIR show alice`) to just
    /// after it, where ArgumentParser looks for them. Everything else keeps its order.
    ///
    /// `--home` and `--account` before a command that reads no home are dropped: they are addressed to
    /// chatmail as a whole (an alias may always add them), and such a command has nothing to apply
    /// them to. After the command they are a usage error, as any option it does not take.
    static func movingGlobalsAfterSubcommand(_ arguments: [String]) -> [String] {
        var leading: [(name: String, arguments: [String])] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            if valueOptions.contains(name) {
                var option = [argument]
                if !argument.contains("="), index + 1 < arguments.count {
                    option.append(arguments[index + 1])
                    index += 1
                }
                leading.append((name, option))
            } else if flagOptions.contains(argument) {
                leading.append((argument, [argument]))
            } else {
                break
            }
            index += 1
        }
        guard !leading.isEmpty, index < arguments.count else { return arguments }
        if commandsWithoutHome.contains(arguments[index]) {
            leading.removeAll { homeOptions.contains($0.name) }
        }
        // arguments[index] is the subcommand (with its own subcommand, for `pending list`); its own
        // arguments follow the moved globals.
        var path = [arguments[index]]
        if index + 1 < arguments.count, nestedSubcommands[arguments[index]]?.contains(arguments[index + 1]) == true {
            path.append(arguments[index + 1])
            index += 1
        }
        return path + leading.flatMap(\.arguments) + arguments[(index + 1)...]
    }
}
