import Foundation
import TerminalUI

/// The settings of chatmail's config file, `config.toml`, as read: every value is optional, because
/// a key left out means "use the environment's or the built-in default".
///
/// What the file may hold is closed: an unknown section or key is an error, so a typo such as
/// `colour = "never"` is reported rather than silently ignored. Values are checked as they are read
/// (URLs, colour modes, widths), so a command never starts with a setting it cannot use.
struct ChatmailConfig: Equatable, Sendable {
    /// `[gmail]`: where chatmail talks to Gmail and Google's OAuth server, and as which client.
    struct Gmail: Equatable, Sendable {
        var apiURL: URL?
        var authorizationURL: URL?
        var tokenURL: URL?
        var clientID: String?
        var clientSecret: String?
    }

    /// `[display]`: how output is written.
    struct Display: Equatable, Sendable {
        var color: ColorMode?
        /// A shell command; empty or `cat` turns paging off, as `CHATMAIL_PAGER` does.
        var pager: String?
        var width: Int?
        /// `true` draws with ASCII; `false` leaves the choice to the locale, as without the key.
        var ascii: Bool?
    }

    /// `[app]`: settings of the interactive app.
    struct App: Equatable, Sendable {
        /// Seconds between background syncs.
        var syncInterval: Int?
    }

    var gmail = Gmail()
    var display = Display()
    var app = App()
    /// `[[account]]` tables, in file order.
    var accounts: [ConfiguredAccount] = []

    /// The sections and their keys, in the order the documentation lists them.
    static let keys: KeyValuePairs<String, [String]> = [
        "gmail": ["api_url", "auth_url", "token_url", "client_id", "client_secret"],
        "display": ["color", "pager", "width", "ascii"],
        "app": ["sync_interval"],
    ]

    /// The narrowest layout chatmail draws, the same bound as `--width`.
    static let minimumWidth = 20
    /// Syncing more often than this spends Gmail quota for nothing; less often than daily is not syncing.
    static let syncIntervalRange = 10...86_400
    static let defaultSyncInterval = 60
}

/// Why a value in the config file was refused; the reader adds the file, key and line.
enum ConfigValueProblem: Error, Equatable {
    case unknownKey(known: [String])
    case wrongType(expected: String, found: String)
    case invalid(reason: String)
}

extension ChatmailConfig {
    /// Sets `key` of `section` from the file's `value`.
    /// - throws: the problem with the key or value, without its position.
    mutating func set(section: String, key: String, to value: TOMLScalar) throws(ConfigValueProblem) {
        switch (section, key) {
        case ("gmail", "api_url"): gmail.apiURL = try value.httpURL()
        case ("gmail", "auth_url"): gmail.authorizationURL = try value.httpURL()
        case ("gmail", "token_url"): gmail.tokenURL = try value.httpURL()
        case ("gmail", "client_id"): gmail.clientID = try value.nonEmptyString()
        case ("gmail", "client_secret"): gmail.clientSecret = try value.nonEmptyString()
        case ("display", "color"):
            let name = try value.string()
            guard let mode = ColorMode(rawValue: name) else {
                throw .invalid(
                    reason: "must be \"auto\", \"always\" or \"never\", not \"\(EchoedInput.excerpt(name))\"")
            }
            display.color = mode
        case ("display", "pager"): display.pager = try value.string()
        case ("display", "width"):
            let width = try value.integer()
            guard width >= Self.minimumWidth else {
                throw .invalid(reason: "must be at least \(Self.minimumWidth), not \(width)")
            }
            display.width = width
        case ("display", "ascii"): display.ascii = try value.boolean()
        case ("app", "sync_interval"):
            let seconds = try value.integer()
            guard Self.syncIntervalRange.contains(seconds) else {
                throw .invalid(
                    reason:
                        "must be \(Self.syncIntervalRange.lowerBound) to \(Self.syncIntervalRange.upperBound) seconds, not \(seconds)"
                )
            }
            app.syncInterval = seconds
        default:
            let known = Self.keys.first { $0.key == section }?.value ?? []
            throw .unknownKey(known: known)
        }
    }
}

/// One value from the file, copied out of the parser's tree so that checking it needs no TOML types.
enum TOMLScalar: Equatable {
    case string(String)
    case integer(Int)
    case boolean(Bool)
    /// An array whose every element is a string.
    case strings([String])
    /// Anything else (a float, a date, another array, a table), by its TOML type name for the message.
    case other(typeName: String)

    var typeName: String {
        switch self {
        case .string: "a string"
        case .integer: "an integer"
        case .boolean: "a boolean"
        case .strings: "an array"
        case .other(let name): name
        }
    }

    func string() throws(ConfigValueProblem) -> String {
        guard case .string(let value) = self else { throw .wrongType(expected: "a string", found: typeName) }
        return value
    }

    func integer() throws(ConfigValueProblem) -> Int {
        guard case .integer(let value) = self else { throw .wrongType(expected: "an integer", found: typeName) }
        return value
    }

    func boolean() throws(ConfigValueProblem) -> Bool {
        guard case .boolean(let value) = self else { throw .wrongType(expected: "true or false", found: typeName) }
        return value
    }

    func strings() throws(ConfigValueProblem) -> [String] {
        guard case .strings(let values) = self else {
            throw .wrongType(expected: "an array of strings", found: typeName)
        }
        return values
    }

    func nonEmptyString() throws(ConfigValueProblem) -> String {
        let value = try string()
        guard !value.isEmpty else { throw .invalid(reason: "must not be empty; leave the key out instead") }
        return value
    }

    func httpURL() throws(ConfigValueProblem) -> URL {
        let value = try string()
        guard let url = GmailSettings.httpURL(value) else {
            throw .invalid(reason: "is not an http(s) URL (\(EchoedInput.excerpt(value)))")
        }
        return url
    }
}
