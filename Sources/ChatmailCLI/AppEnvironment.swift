import ChatmailStore
import Foundation
import Logging
import MailText
import TerminalUI
import TextFormatting

#if canImport(Glibc)
import Glibc
#endif

/// The object graph of one command run, built once from the global options, the process
/// environment and the config file. Nothing below the CLI reads the environment or global state itself.
///
/// Each setting comes from its option, else its environment variable, else the config file, else the
/// built-in default.
struct AppEnvironment {
    let options: GlobalOptions
    let environment: [String: String]
    /// The config file's settings (empty without a file).
    let config: ChatmailConfig
    let home: URL
    let stdoutIsTerminal: Bool
    let logger = Logger(label: "chatmail")

    /// The database file inside the home directory.
    static let databaseName = "chatmail.sqlite"

    /// Reads the config file (`--config`, else the default one) and builds the environment.
    ///
    /// A file that cannot be used ends the command here, before it does anything, with one line on
    /// stderr and the usage status: every command builds its environment first, and a setting the user
    /// wrote must never be silently ignored.
    init(_ options: GlobalOptions, environment: [String: String] = ProcessInfo.processInfo.environment) {
        let config: ChatmailConfig
        do {
            config = try ConfigFile.load(option: options.output.configFile, environment: environment)
        } catch {
            ChatmailCommand.exit(reporting: error, printingJSON: false)
        }
        self.init(options, environment: environment, config: config)
    }

    init(_ options: GlobalOptions, environment: [String: String], config: ChatmailConfig) {
        self.options = options
        self.environment = environment
        self.config = config
        self.home = Self.resolveHome(option: options.home, environment: environment)
        self.stdoutIsTerminal = isatty(STDOUT_FILENO) == 1
    }

    /// `--home`, else `$CHATMAIL_HOME`, else `$XDG_DATA_HOME/chatmail`, else `~/.local/share/chatmail`.
    static func resolveHome(option: String?, environment: [String: String]) -> URL {
        if let option, !option.isEmpty { return URL(fileURLWithPath: option, isDirectory: true) }
        if let home = environment["CHATMAIL_HOME"], !home.isEmpty {
            return URL(fileURLWithPath: home, isDirectory: true)
        }
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("chatmail", isDirectory: true)
        }
        let user =
            environment["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        return user.appendingPathComponent(".local/share/chatmail", isDirectory: true)
    }

    var databasePath: String { home.appendingPathComponent(Self.databaseName).path }

    /// Opens the existing store. Read commands never create one: without a database there is no
    /// account, which is what the error says.
    func openExistingStore() throws -> ChatmailStore {
        guard FileManager.default.fileExists(atPath: databasePath) else {
            logger.debug("No database", metadata: ["path": "\(databasePath)"])
            throw StoreError.noAccount
        }
        let start = ContinuousClock.now
        let store = try openDatabase()
        logger.debug(
            "Opened the store", metadata: ["path": "\(databasePath)", "elapsed": "\(ContinuousClock.now - start)"])
        return store
    }

    /// Opens the store, creating the home directory (mode 0700) and database when `creating` is true.
    func openStore(creating: Bool) throws -> ChatmailStore {
        guard creating else { return try openExistingStore() }
        do {
            try FileManager.default.createDirectory(
                at: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw StoreError.unreadableDatabase(
                path: home.path, reason: "cannot create the directory (\(error.localizedDescription))")
        }
        return try openDatabase()
    }

    /// Opens the database file. SQLite takes a zero-byte file for a new database, which is right (an
    /// interrupted first run can leave one), but a user who expected mail there is told, once. A file
    /// that cannot even be examined is left for the open to report.
    private func openDatabase() throws -> ChatmailStore {
        if let size = try? FileManager.default.attributesOfItem(atPath: databasePath)[.size] as? Int, size == 0 {
            let path = TerminalSafeText.singleLine(databasePath)
            FileHandle.standardError.write(
                Data("chatmail: the database at \(path) was empty; starting a new one.\n".utf8))
        }
        return try ChatmailStore(path: databasePath, clock: clock, subjectBase: ReplySubject.topicBase)
    }

    /// The account chosen by `--account`, or the only one.
    func selectedAccount(in store: ChatmailStore) throws -> Account {
        do {
            return try store.account(options.account.map(AccountSelection.email) ?? .onlyAccount)
        } catch StoreError.unknownAccount(let email) {
            throw StoreError.unknownAccount(EchoedInput.excerpt(email))  // the message repeats what was typed
        }
    }

    /// "Now" for relative times. `CHATMAIL_NOW_MS` pins it, so tests and golden files are reproducible.
    var clock: ChatmailStore.Clock {
        if let pinned = environment["CHATMAIL_NOW_MS"].flatMap(Int64.init) { return { pinned } }
        return ChatmailStore.systemClock
    }

    var time: TimeFormatting { TimeFormatting(timeZone: .current, nowMs: clock()) }

    var palette: Palette {
        Palette(isEnabled: colorMode.isEnabled(environment: environment, stdoutIsTerminal: stdoutIsTerminal))
    }

    /// `--color`, else `never` when NO_COLOR or TERM=dumb asks for it, else the file's, else `auto`.
    var colorMode: ColorMode {
        if let mode = options.color { return mode }
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty || environment["TERM"] == "dumb"
        return noColor ? .never : config.display.color ?? .auto
    }

    /// `--width`, else the config file's, else the terminal's (stdout, then stderr), else `$COLUMNS`,
    /// else 80. The file's width means what `--width` means, "this many columns instead of the
    /// terminal's"; `$COLUMNS` only ever stands in for a terminal that cannot be asked.
    var width: Int {
        if let width = options.width ?? config.display.width { return width }
        for descriptor in [STDOUT_FILENO, STDERR_FILENO] {
            var size = winsize()
            if ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col >= 20 { return Int(size.ws_col) }
        }
        if let columns = environment["COLUMNS"].flatMap(Int.init), columns >= 20 { return columns }
        return 80
    }

    /// Rounded box drawing, or ASCII with `--ascii`, `ascii = true` in the config file, or when the
    /// locale is not UTF-8.
    var glyphs: Glyphs {
        options.ascii || config.display.ascii == true ? .ascii : Glyphs.forLocale(environment: environment)
    }

    /// The pager's command, or `nil` when paging is off: `$CHATMAIL_PAGER`, else the config file's,
    /// else `$PAGER`, else `less -FRX`. As with git's `core.pager`, the file ranks above `$PAGER`,
    /// which is often set system-wide for every program, so that a pager chosen for chatmail is used.
    var pagerCommand: String? {
        var choices = environment
        if choices["CHATMAIL_PAGER"] == nil, let pager = config.display.pager { choices["CHATMAIL_PAGER"] = pager }
        return Pager.command(environment: choices)
    }

    /// Seconds between the interactive app's background syncs: the config file's, else the default.
    var syncInterval: Duration { .seconds(config.app.syncInterval ?? ChatmailConfig.defaultSyncInterval) }

    /// Writes long output through the pager when stdout is a terminal and the text is taller than the
    /// screen (see ``Pager``); otherwise, or when the pager cannot start, writes it directly.
    func present(_ text: String, paging: Bool) throws {
        if paging, stdoutIsTerminal, let command = pagerCommand {
            // Output that fits on the screen is printed directly, as git does.
            let lineCount = text.utf8.reduce(0) { $1 == 0x0A ? $0 + 1 : $0 }
            if lineCount > terminalRows(environment: environment) {
                do {
                    try Pager(command: command).page(text, environment: environment)
                    return
                } catch {
                    logger.debug(
                        "The pager did not start; printing directly",
                        metadata: ["pager": "\(command)", "error": "\(error)"])
                }
            }
        }
        try write(text)
    }

    /// Tells the user something on stderr, one line, without disturbing the output on stdout.
    func note(_ text: String) {
        FileHandle.standardError.write(Data("chatmail: \(TerminalSafeText.singleLine(text))\n".utf8))
    }

    /// Writes command output to stdout in one piece.
    func write(_ text: String) throws {
        do {
            try FileHandle.standardOutput.write(contentsOf: Data(text.utf8))
        } catch {
            throw CommandError.outputFailed(error.localizedDescription)
        }
    }
}
