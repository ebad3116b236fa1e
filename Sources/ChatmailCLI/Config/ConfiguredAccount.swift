import ChatmailStore

/// One `[[account]]` table of the config file: the settings `login --imap` would take, kept in the file.
///
/// `login --imap ADDRESS` fills every option it is not given from the table with that address, and every
/// later connection takes the password and token commands from it, so a user can change them in one place.
struct ConfiguredAccount: Equatable, Sendable {
    enum Kind: String, Sendable { case gmail, imap }

    var kind: Kind = .imap
    var address: String?
    var host: String?
    var port: Int?
    var security: IMAPAccountSettings.Security?
    var user: String?
    var passwordCommand: String?
    var tokenCommand: String?
    var aliases: [String] = []
    var smtpHost: String?
    var smtpPort: Int?
    var smtpSecurity: IMAPAccountSettings.Security?
    var sentCopy: IMAPAccountSettings.SentCopy?

    static let keys = [
        "kind", "address", "host", "port", "security", "user", "password_command", "token_command", "aliases",
        "smtp_host", "smtp_port", "smtp_security", "sent_copy",
    ]

    mutating func set(key: String, to value: TOMLScalar) throws(ConfigValueProblem) {
        switch key {
        case "kind":
            let name = try value.string()
            guard let kind = Kind(rawValue: name) else {
                throw .invalid(reason: "must be \"imap\" or \"gmail\", not \"\(EchoedInput.excerpt(name))\"")
            }
            self.kind = kind
        case "address": address = try value.nonEmptyString()
        case "host": host = try value.nonEmptyString()
        case "port": port = try Self.port(value)
        case "security": security = try Self.security(value)
        case "user": user = try value.nonEmptyString()
        case "password_command": passwordCommand = try value.nonEmptyString()
        case "token_command": tokenCommand = try value.nonEmptyString()
        case "aliases": aliases = try value.strings()
        case "smtp_host": smtpHost = try value.nonEmptyString()
        case "smtp_port": smtpPort = try Self.port(value)
        case "smtp_security": smtpSecurity = try Self.security(value)
        case "sent_copy":
            let name = try value.string()
            guard let policy = IMAPAccountSettings.SentCopy(rawValue: name) else {
                throw .invalid(
                    reason: "must be \"auto\", \"always\" or \"never\", not \"\(EchoedInput.excerpt(name))\"")
            }
            sentCopy = policy
        default: throw .unknownKey(known: Self.keys)
        }
    }

    private static func port(_ value: TOMLScalar) throws(ConfigValueProblem) -> Int {
        let port = try value.integer()
        guard (1...65_535).contains(port) else { throw .invalid(reason: "must be 1 to 65535, not \(port)") }
        return port
    }

    private static func security(_ value: TOMLScalar) throws(ConfigValueProblem) -> IMAPAccountSettings.Security {
        let name = try value.string()
        guard let security = IMAPAccountSettings.Security(rawValue: name) else {
            throw .invalid(reason: "must be \"tls\", \"starttls\" or \"none\", not \"\(EchoedInput.excerpt(name))\"")
        }
        return security
    }
}

extension ChatmailConfig {
    /// The `[[account]]` table for `address`, compared as identities are.
    func account(for address: String) -> ConfiguredAccount? {
        let key = EmailNormalizer.identityKey(for: address)
        return accounts.first { $0.address.map(EmailNormalizer.identityKey(for:)) == key }
    }
}
