import Foundation
import TOMLKit

/// Finds and reads chatmail's config file.
///
/// The file is `--config FILE`, else `$XDG_CONFIG_HOME/chatmail/config.toml`, else
/// `~/.config/chatmail/config.toml`. A missing default file means "no settings"; a file named by
/// `--config` must exist, since the user asked for it.
enum ConfigFile {
    /// The default file's place, whether or not it exists.
    static func defaultLocation(environment: [String: String]) -> URL {
        let base: URL
        if let xdg = environment["XDG_CONFIG_HOME"], !xdg.isEmpty {
            base = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            let user =
                environment["HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0, isDirectory: true) }
                ?? FileManager.default.homeDirectoryForCurrentUser
            base = user.appendingPathComponent(".config", isDirectory: true)
        }
        return base.appendingPathComponent("chatmail/config.toml")
    }

    /// The settings in `--config`'s file (`option`), else in the default file, else none.
    static func load(option: String?, environment: [String: String]) throws(ConfigError) -> ChatmailConfig {
        let file = option.map { URL(fileURLWithPath: $0) } ?? defaultLocation(environment: environment)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory) else {
            if option != nil { throw .fileMissing(path: file.path) }
            return ChatmailConfig()
        }
        guard !isDirectory.boolValue else { throw .unreadable(path: file.path, reason: "it is a directory") }
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw .unreadable(path: file.path, reason: error.localizedDescription)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .unreadable(path: file.path, reason: "it is not UTF-8 text")
        }
        return try parse(text, path: file.path)
    }

    /// The settings in `text`, the contents of the file at `path` (named in errors).
    static func parse(_ text: String, path: String) throws(ConfigError) -> ChatmailConfig {
        let root: TOMLTable
        do {
            root = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw .syntax(
                path: path, line: error.source.begin.line, column: error.source.begin.column, reason: error.description)
        } catch {
            throw .syntax(path: path, line: nil, column: nil, reason: "\(error)")
        }
        var config = ChatmailConfig()
        for (section, value) in root {
            if section == "account" {
                config.accounts = try accounts(value, path: path, text: text)
                continue
            }
            guard ChatmailConfig.keys.contains(where: { $0.key == section }) else {
                throw .unknownKey(
                    path: path, line: line(of: [section], in: text), key: section,
                    known: ChatmailConfig.keys.map { "[\($0.key)]" } + ["[[account]]"])
            }
            guard let table = value.table else {
                throw .wrongType(
                    path: path, line: line(of: [section], in: text), key: section, expected: "a table ([\(section)])",
                    found: scalar(value).typeName)
            }
            for (key, value) in table {
                do throws(ConfigValueProblem) {
                    try config.set(section: section, key: key, to: scalar(value))
                } catch {
                    let keyPath = "\(section).\(key)"
                    let line = line(of: [section, key], in: text)
                    switch error {
                    case .unknownKey(let known):
                        throw .unknownKey(path: path, line: line, key: keyPath, known: known)
                    case .wrongType(let expected, let found):
                        throw .wrongType(path: path, line: line, key: keyPath, expected: expected, found: found)
                    case .invalid(let reason):
                        throw .invalidValue(path: path, line: line, key: keyPath, reason: reason)
                    }
                }
            }
        }
        return config
    }

    /// The `[[account]]` tables.
    private static func accounts(_ value: any TOMLValueConvertible, path: String, text: String) throws(ConfigError)
        -> [ConfiguredAccount]
    {
        guard let array = value.array else {
            throw .wrongType(
                path: path, line: line(of: ["account"], in: text), key: "account",
                expected: "an array of tables ([[account]])", found: scalar(value).typeName)
        }
        var accounts: [ConfiguredAccount] = []
        for element in array {
            guard let table = element.table else {
                throw .wrongType(
                    path: path, line: line(of: ["account"], in: text), key: "account",
                    expected: "an array of tables ([[account]])", found: scalar(element).typeName)
            }
            var account = ConfiguredAccount()
            for (key, value) in table {
                do throws(ConfigValueProblem) {
                    try account.set(key: key, to: scalar(value))
                } catch {
                    let keyPath = "account.\(key)"
                    switch error {
                    case .unknownKey(let known):
                        throw .unknownKey(path: path, line: nil, key: keyPath, known: known)
                    case .wrongType(let expected, let found):
                        throw .wrongType(path: path, line: nil, key: keyPath, expected: expected, found: found)
                    case .invalid(let reason):
                        throw .invalidValue(path: path, line: nil, key: keyPath, reason: reason)
                    }
                }
            }
            guard account.address != nil else {
                throw .invalidValue(
                    path: path, line: line(of: ["account"], in: text), key: "account",
                    reason: "needs address = \"you@example.org\"")
            }
            accounts.append(account)
        }
        return accounts
    }

    /// The parser's value, copied out of its tree.
    private static func scalar(_ value: any TOMLValueConvertible) -> TOMLScalar {
        switch value.type {
        case .string: value.string.map(TOMLScalar.string) ?? .other(typeName: "a string")
        case .int: value.int.map(TOMLScalar.integer) ?? .other(typeName: "an integer")
        case .bool: value.bool.map(TOMLScalar.boolean) ?? .other(typeName: "a boolean")
        case .double: .other(typeName: "a floating-point number")
        case .array:
            value.array.flatMap { array in
                let strings = array.compactMap(\.string)
                return strings.count == array.count ? TOMLScalar.strings(strings) : nil
            } ?? .other(typeName: "an array")
        case .table: .other(typeName: "a table")
        case .date: .other(typeName: "a date")
        case .time: .other(typeName: "a time")
        case .dateTime: .other(typeName: "a date-time")
        }
    }

    /// Files longer than this are not searched for a key's line: the search parses every prefix.
    static let maximumLinesSearched = 1_000

    /// The 1-based line that defines `keyPath` in `text`, or `nil` when it cannot be told.
    ///
    /// TOMLKit reports positions for syntax errors only, not for the keys of a parsed document. So the
    /// line is found with the parser itself: it is the shortest run of leading lines whose document
    /// already holds the key. A prefix that cuts a multi-line value in two does not parse and is
    /// skipped; such a key is reported at the line that completes its value.
    static func line(of keyPath: [String], in text: String) -> Int? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count <= maximumLinesSearched else { return nil }
        var prefix = ""
        for (index, line) in lines.enumerated() {
            prefix += line + "\n"
            guard let table = try? TOMLTable(string: prefix) else { continue }
            var node: (any TOMLValueConvertible)? = table
            for key in keyPath { node = node?.table?[key] }
            if node != nil { return index + 1 }
        }
        return nil
    }
}

/// Why the config file could not be used. Each is reported on one line naming the file and, where
/// it can be told, the line.
enum ConfigError: Error, Equatable, Sendable {
    /// `--config` names a file that does not exist.
    case fileMissing(path: String)
    case unreadable(path: String, reason: String)
    /// Not TOML; the parser's position and reason.
    case syntax(path: String, line: Int?, column: Int?, reason: String)
    /// A section or key chatmail does not know, which is most often a typo.
    case unknownKey(path: String, line: Int?, key: String, known: [String])
    case wrongType(path: String, line: Int?, key: String, expected: String, found: String)
    case invalidValue(path: String, line: Int?, key: String, reason: String)
}

extension ConfigError: LocalizedError {
    var errorDescription: String? {
        switch self {
        case .fileMissing(let path):
            "the config file \(path) does not exist"
        case .unreadable(let path, let reason):
            "cannot read the config file \(path): \(reason)"
        case .syntax(let path, let line, let column, let reason):
            "\(Self.place(path, line: line, column: column)): \(reason)"
        case .unknownKey(let path, let line, let key, let known):
            "\(Self.place(path, line: line)): unknown key \(key) (expected one of: \(known.joined(separator: ", ")))"
        case .wrongType(let path, let line, let key, let expected, let found):
            "\(Self.place(path, line: line)): \(key) must be \(expected), not \(found)"
        case .invalidValue(let path, let line, let key, let reason):
            "\(Self.place(path, line: line)): \(key) \(reason)"
        }
    }

    /// "config file PATH, line N, column M", as far as they are known.
    private static func place(_ path: String, line: Int?, column: Int? = nil) -> String {
        var text = "config file \(path)"
        if let line { text += ", line \(line)" }
        if line != nil, let column { text += ", column \(column)" }
        return text
    }
}
