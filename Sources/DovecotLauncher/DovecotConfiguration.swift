import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What a ``DovecotServer`` offers: its capability list, its users, and the optional rawlog and OAuth
/// login. The mailbox layout is fixed (Maildir++, `.` as the hierarchy separator) so that
/// ``DovecotServer/folderDirectory(_:of:)`` can tell where a folder lives on disk.
public struct DovecotConfiguration: Sendable {
    /// The capability list the server announces.
    public enum Capabilities: Sendable {
        /// Dovecot's own list: CONDSTORE, QRESYNC, IDLE, UIDPLUS, MOVE, SPECIAL-USE, ESEARCH and more.
        case full
        /// What Office 365 announces: no CONDSTORE and no QRESYNC. Dovecot still answers those commands
        /// when a client sends them anyway, so a test of a fallback must check the commands it received
        /// (``DovecotServer/clientCommands(of:)``), not only the answers.
        case outlookLike
    }

    /// The folders every user has, created on first login and subscribed, each with its special use.
    public static let specialUseFolders: [(name: String, use: String)] = [
        ("Sent", "\\Sent"), ("Drafts", "\\Drafts"), ("Trash", "\\Trash"), ("Junk", "\\Junk"),
        ("Archive", "\\Archive"),
    ]

    public var capabilities: Capabilities = .full
    public var users: [DovecotUser] = [DovecotUser(name: "alice@example.org", password: "secret")]
    /// Records every session's client commands under the server directory, for
    /// ``DovecotServer/clientCommands(of:)``.
    public var rawlog: Bool = false
    /// Where to introspect OAuth tokens (RFC 7662, POSTed as a form). Set, the server also offers
    /// XOAUTH2 and OAUTHBEARER, and accepts a token when the endpoint answers it is active and names the
    /// user in its `email` attribute.
    public var oauth2IntrospectionURL: URL? = nil
    /// Plain folders created (and subscribed) for every user at the first start, named with `.` as the
    /// hierarchy separator, such as `Projects.2024`.
    public var extraFolders: [String] = []
    /// Capabilities left out of the announced list, such as `UIDPLUS`, `MOVE` and `LITERAL+` for a
    /// client's fallbacks. Dovecot still answers the commands (and still sends APPENDUID and COPYUID), so
    /// a test must check what the client sent or made of the answers, not only that it worked.
    public var withheldCapabilities: Set<String> = []
    /// Keeps login and IMAP processes started ahead of connections (Dovecot's high-performance mode, as
    /// busy production servers run), so a benchmark times the client rather than Dovecot's fork and exec
    /// of two processes per connection. Off for the tests, which want Dovecot's defaults.
    public var prestartsProcesses = false

    public init(
        capabilities: Capabilities = .full,
        users: [DovecotUser] = [DovecotUser(name: "alice@example.org", password: "secret")],
        rawlog: Bool = false,
        oauth2IntrospectionURL: URL? = nil,
        extraFolders: [String] = [],
        withheldCapabilities: Set<String> = []
    ) {
        self.capabilities = capabilities
        self.users = users
        self.rawlog = rawlog
        self.oauth2IntrospectionURL = oauth2IntrospectionURL
        self.extraFolders = extraFolders
        self.withheldCapabilities = withheldCapabilities
    }

    /// The list the server announces after login, with ``withheldCapabilities`` left out; nil for
    /// Dovecot's own, unchanged.
    var announcedCapabilities: String? {
        let base: String
        switch capabilities {
        case .full:
            guard !withheldCapabilities.isEmpty else { return nil }
            base = DovecotConfigWriter.dovecotCapabilities
        case .outlookLike:
            base = DovecotConfigWriter.outlookCapabilities
        }
        let withheld = Set(withheldCapabilities.map { $0.uppercased() })
        return base.split(separator: " ").filter { !withheld.contains($0.uppercased()) }.joined(separator: " ")
    }
}

/// A login of the test server; `name` is also the IMAP user name.
public struct DovecotUser: Sendable, Equatable {
    public var name: String
    public var password: String

    public init(name: String, password: String) {
        self.name = name
        self.password = password
    }
}

/// The files and directories of one server, all under its directory, so that nothing touches
/// `/etc/dovecot`, `/var/run/dovecot` or `/var/lib/dovecot`.
struct DovecotLayout: Sendable {
    let directory: URL

    var configFile: URL { directory.appendingPathComponent("dovecot.conf") }
    var passwordFile: URL { directory.appendingPathComponent("users") }
    var oauth2File: URL { directory.appendingPathComponent("oauth2.conf.ext") }
    var baseDirectory: URL { directory.appendingPathComponent("run") }
    var stateDirectory: URL { directory.appendingPathComponent("state") }
    var logFile: URL { directory.appendingPathComponent("dovecot.log") }
    /// The master's own stdout and stderr, which say why it refused a configuration before logging.
    var outputFile: URL { directory.appendingPathComponent("dovecot.out") }
    var homes: URL { directory.appendingPathComponent("home") }
    var rawlogs: URL { directory.appendingPathComponent("rawlog") }

    func home(of user: String) -> URL { homes.appendingPathComponent(user) }
    func rawlog(of user: String) -> URL { rawlogs.appendingPathComponent(user) }
}

/// Who the mail processes run as: `nobody` when this process is root (Dovecot refuses to run mail as
/// root), otherwise this process's own user, since nobody else can be switched to.
struct MailOwner: Sendable {
    let uid: uid_t
    let gid: gid_t
    /// The name Dovecot's own services run as when not root (`default_internal_user`); nil as root,
    /// where Debian's `dovecot` and `dovenull` users exist.
    let unprivilegedName: String?

    var isRoot: Bool { unprivilegedName == nil }

    static func current() throws(DovecotError) -> MailOwner {
        if geteuid() == 0 {
            guard let nobody = getpwnam("nobody") else { throw .invalidConfiguration("there is no user nobody") }
            return MailOwner(uid: nobody.pointee.pw_uid, gid: nobody.pointee.pw_gid, unprivilegedName: nil)
        }
        guard let me = getpwuid(geteuid()), let name = me.pointee.pw_name else {
            throw .invalidConfiguration("this process's user \(geteuid()) has no name")
        }
        return MailOwner(uid: geteuid(), gid: getegid(), unprivilegedName: String(cString: name))
    }
}

/// Dovecot's configuration text for one server.
enum DovecotConfigWriter {
    static let outlookCapabilities =
        "IMAP4rev1 SASL-IR ID UNSELECT ENABLE IDLE NAMESPACE CHILDREN UIDPLUS MOVE LITERAL+ SPECIAL-USE"
    /// What Dovecot 2.3 announces after login by default, written out so capabilities can be withheld
    /// from it (Dovecot's `imap_capability` can add to its own list, not take away).
    static let dovecotCapabilities =
        "IMAP4rev1 SASL-IR LOGIN-REFERRALS ID ENABLE IDLE SORT SORT=DISPLAY THREAD=REFERENCES THREAD=REFS "
        + "THREAD=ORDEREDSUBJECT MULTIAPPEND URL-PARTIAL CATENATE UNSELECT CHILDREN NAMESPACE UIDPLUS "
        + "LIST-EXTENDED I18NLEVEL=1 CONDSTORE QRESYNC ESEARCH ESORT SEARCHRES WITHIN CONTEXT=SEARCH LIST-STATUS "
        + "BINARY MOVE SNIPPET=FUZZY PREVIEW=FUZZY PREVIEW STATUS=SIZE SAVEDATE LITERAL+ NOTIFY SPECIAL-USE"

    static func configText(
        _ configuration: DovecotConfiguration, layout: DovecotLayout, port: Int, instanceName: String,
        owner: MailOwner
    ) -> String {
        var mechanisms = "plain login"
        if configuration.oauth2IntrospectionURL != nil { mechanisms += " xoauth2 oauthbearer" }
        var text = """
            protocols = imap
            listen = 127.0.0.1
            base_dir = \(layout.baseDirectory.path)
            state_dir = \(layout.stateDirectory.path)
            instance_name = \(instanceName)
            log_path = \(layout.logFile.path)
            ssl = no
            disable_plaintext_auth = no
            auth_failure_delay = 0
            auth_mechanisms = \(mechanisms)
            mail_location = maildir:~/Maildir
            mail_max_userip_connections = 100

            passdb {
              driver = passwd-file
              args = scheme=PLAIN username_format=%u \(layout.passwordFile.path)
            }
            userdb {
              driver = static
              args = uid=\(owner.uid) gid=\(owner.gid) home=\(layout.homes.path)/%u
            }

            service imap-login {
              chroot =\(configuration.prestartsProcesses ? "\n  service_count = 0\n  process_min_avail = 2" : "")
              inet_listener imap {
                address = 127.0.0.1
                port = \(port)
              }
              inet_listener imaps {
                port = 0
              }
            }
            \(configuration.prestartsProcesses ? "service imap {\n  process_min_avail = 2\n}" : "")
            service anvil {
              chroot =
              # Without this, logins from an address that just failed one wait up to 15 s (2^n), which
              # auth_failure_delay does not cover; mode 0 is Dovecot's way to turn the penalty off.
              unix_listener anvil-auth-penalty {
                mode = 0
              }
            }

            namespace inbox {
              inbox = yes
              separator = .

            """
        for folder in DovecotConfiguration.specialUseFolders {
            text += """
                  mailbox \(folder.name) {
                    special_use = \(folder.use)
                    auto = subscribe
                  }

                """
        }
        text += "}\n"
        if let capabilities = configuration.announcedCapabilities {
            text += "imap_capability = \(capabilities)\n"
        }
        if configuration.rawlog {
            // The imap process itself writes `<dir>/<date>.<pid>.<n>.in` and `.out` when the directory
            // exists; 2.3 needs no postlogin script for it. Commands before login (LOGIN, AUTHENTICATE)
            // are handled by imap-login and are not recorded.
            text += """
                protocol imap {
                  rawlog_dir = \(layout.rawlogs.path)/%u
                }

                """
        }
        if configuration.oauth2IntrospectionURL != nil {
            text += """
                passdb {
                  driver = oauth2
                  mechanisms = xoauth2 oauthbearer
                  args = \(layout.oauth2File.path)
                }

                """
        }
        if let name = owner.unprivilegedName {
            // Not root: every service runs as this user, since Dovecot cannot switch to its own users.
            text += """
                default_internal_user = \(name)
                default_login_user = \(name)

                """
        }
        return text
    }

    /// The passwd-file: one `name:{PLAIN}password` line per user.
    static func passwordText(_ users: [DovecotUser]) throws(DovecotError) -> String {
        var text = ""
        for user in users {
            // `:` separates the fields and a line break the entries; `/` would leave the user's home.
            let forbidden: Set<Character> = [":", "\n", "\r", "/"]
            guard !user.name.isEmpty, !user.name.contains(where: forbidden.contains),
                !user.password.contains(where: { $0 == "\n" || $0 == "\r" || $0 == ":" })
            else {
                throw .invalidConfiguration("user \(user.name.debugDescription) cannot be written to a passwd-file")
            }
            text += "\(user.name):{PLAIN}\(user.password)\n"
        }
        return text
    }

    static func oauth2Text(introspectionURL: URL) -> String {
        """
        introspection_mode = post
        introspection_url = \(introspectionURL.absoluteString)
        force_introspection = yes
        username_attribute = email
        active_attribute = active
        active_value = true

        """
    }
}
