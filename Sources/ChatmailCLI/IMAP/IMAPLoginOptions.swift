import ArgumentParser
import ChatmailStore

extension IMAPAccountSettings.Security: ExpressibleByArgument {}
extension IMAPAccountSettings.SentCopy: ExpressibleByArgument {}

/// `login --imap`'s options, and the defaults that fill what they leave out.
struct IMAPLoginOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Log in to an IMAP account with this address instead of Gmail's API.", valueName: "address"))
    var imap: String?
    @Option(help: ArgumentHelp("The IMAP server.", valueName: "host")) var host: String?
    @Option(help: ArgumentHelp("The IMAP port (default: 993 with tls, 143 otherwise).", valueName: "n"))
    var port: Int?
    @Option(help: "tls (default), starttls or none.") var security: IMAPAccountSettings.Security?
    @Option(help: ArgumentHelp("The login name (default: the address).", valueName: "login")) var user: String?
    @Option(
        help: ArgumentHelp(
            "Run this through sh -c at each connection; its first output line is the password, never stored.",
            valueName: "cmd"))
    var passwordCommand: String?
    @Option(
        help: ArgumentHelp(
            "Run this through sh -c at each connection; its first output line is an OAuth2 token (XOAUTH2).",
            valueName: "cmd"))
    var tokenCommand: String?
    @Option(help: ArgumentHelp("Another address of yours (repeat for each).", valueName: "address"))
    var alias: [String] = []
    @Option(
        help: ArgumentHelp(
            "The SMTP server (default: the IMAP host, with imap. changed to smtp.).", valueName: "host"))
    var smtpHost: String?
    @Option(help: ArgumentHelp("The SMTP port (default: 465 tls, 587 starttls, 25 none).", valueName: "n"))
    var smtpPort: Int?
    @Option(help: "tls, starttls or none (default: --security).") var smtpSecurity: IMAPAccountSettings.Security?
    @Option(
        help: ArgumentHelp(
            "Whether to file a copy of sent mail in Sent: auto (unless the server does: Gmail, Outlook, iCloud), "
                + "always or never.", valueName: "policy"))
    var sentCopy: IMAPAccountSettings.SentCopy?

    /// Options that mean nothing without `--imap`, by their flag.
    var imapOnlyOptionsGiven: [String] {
        var given: [String] = []
        if host != nil { given.append("--host") }
        if port != nil { given.append("--port") }
        if security != nil { given.append("--security") }
        if user != nil { given.append("--user") }
        if passwordCommand != nil { given.append("--password-command") }
        if tokenCommand != nil { given.append("--token-command") }
        if !alias.isEmpty { given.append("--alias") }
        if smtpHost != nil { given.append("--smtp-host") }
        if smtpPort != nil { given.append("--smtp-port") }
        if smtpSecurity != nil { given.append("--smtp-security") }
        if sentCopy != nil { given.append("--sent-copy") }
        return given
    }

    func validate() throws {
        guard imap != nil else {
            if let first = imapOnlyOptionsGiven.first { throw ValidationError("\(first) needs --imap ADDRESS.") }
            return
        }
        for (name, port) in [("--port", port), ("--smtp-port", smtpPort)] {
            if let port, !(1...65_535).contains(port) {
                throw ValidationError("\(name) must be 1 to 65535, not \(port).")
            }
        }
        if passwordCommand != nil && tokenCommand != nil {
            throw ValidationError("Give --password-command or --token-command, not both.")
        }
    }

    /// The settings these options describe, over the config file's `[[account]]` table for the address,
    /// over the built-in defaults.
    /// - throws: `ValidationError` when neither names the host.
    func settings(address: String, file: ConfiguredAccount?) throws -> IMAPAccountSettings {
        guard let host = host ?? file?.host else {
            throw ValidationError("--imap needs --host HOST (or host in the config file's [[account]] for it).")
        }
        var settings = Self.settings(
            host: host, port: port ?? file?.port, security: security ?? file?.security,
            user: user ?? file?.user ?? address,
            passwordCommand: passwordCommand ?? file?.passwordCommand, tokenCommand: tokenCommand ?? file?.tokenCommand,
            smtpHost: smtpHost ?? file?.smtpHost, smtpPort: smtpPort ?? file?.smtpPort,
            smtpSecurity: smtpSecurity ?? file?.smtpSecurity)
        settings.sentCopy = sentCopy ?? file?.sentCopy ?? .auto
        return settings
    }

    /// The defaults: tls on 993, starttls and none on 143; SMTP on the IMAP host (`imap.` becomes `smtp.`),
    /// secured like IMAP, on 465, 587 or 25.
    static func settings(
        host: String, port: Int?, security: IMAPAccountSettings.Security?, user: String, passwordCommand: String?,
        tokenCommand: String?, smtpHost: String?, smtpPort: Int?, smtpSecurity: IMAPAccountSettings.Security?
    ) -> IMAPAccountSettings {
        let security = security ?? .tls
        let smtpSecurity = smtpSecurity ?? security
        let defaultSMTPHost = host.lowercased().hasPrefix("imap.") ? "smtp." + host.dropFirst(5) : host
        let defaultSMTPPort =
            switch smtpSecurity {
            case .tls: 465
            case .starttls: 587
            case .none: 25
            }
        return IMAPAccountSettings(
            host: host, port: port ?? (security == .tls ? 993 : 143), security: security, login: user,
            passwordCommand: passwordCommand, tokenCommand: tokenCommand, smtpHost: smtpHost ?? defaultSMTPHost,
            smtpPort: smtpPort ?? defaultSMTPPort, smtpSecurity: smtpSecurity)
    }
}
