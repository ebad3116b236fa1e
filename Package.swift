// swift-tools-version:6.2
import PackageDescription

/// Compiler settings shared by every target: Swift 6 language mode (complete strict concurrency) plus
/// the upcoming features the house style asks for.
let strictSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

// Linux is the only target: chatmail is built and tested there (libcurl through FoundationNetworking,
// glibc's wcwidth, /proc), so no Apple platform is declared.
let package = Package(
    name: "chatmail",
    products: [
        .executable(name: "chatmail", targets: ["chatmail"]),
        .executable(name: "chatmail-bench", targets: ["chatmail-bench"]),
        .executable(name: "gmail-emulator", targets: ["gmail-emulator"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        // The emulator's HTTP server only; `traits: []` skips the optional swift-configuration support.
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1", traits: []),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
        // The config file's parser (toml++ underneath), which reports the line of a syntax error.
        .package(url: "https://github.com/LebJe/TOMLKit", exact: "0.6.0"),
        // base64url for Gmail's payloads and the PKCE challenge.
        .package(url: "https://github.com/swift-extras/swift-extras-base64", exact: "1.2.0"),
        // The IMAP client's transport; the same versions Hummingbird already resolved.
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-ssl", exact: "2.37.6"),
    ],
    targets: [
        // The SQL migrations in `Schema/` are the single truth about the database. SwiftPM only ships
        // resources that live inside a target's folder, so `Schema/` is itself a tiny target whose one
        // Swift file lists the migration files it carries.
        .target(
            name: "ChatmailSchema",
            path: "Schema",
            exclude: ["README.md"],
            resources: [.copy("Migrations")],
            swiftSettings: strictSettings
        ),
        // The mailbox `chatmail demo` serves, shipped beside the binary as a resource bundle so an
        // installed chatmail finds it without the source tree. It stays in `Fixtures/` with the other
        // test inputs, so `Fixtures/` is a target that carries only that one folder: a new folder in
        // `Fixtures/` must be added to `exclude`, or SwiftPM warns about unhandled files.
        .target(
            name: "ChatmailDemoMailbox",
            path: "Fixtures",
            exclude: ["README.md", "corpus", "gmail", "html", "import", "plain", "quality"],
            sources: ["DemoMailboxResources.swift"],
            resources: [.copy("demo-mailbox")],
            swiftSettings: strictSettings
        ),
        // libxml2 from the system (Debian: libxml2-dev), found through pkg-config.
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        // SHA-256, shared by identity hashing (store), import ids (sync) and PKCE (GmailAPI).
        .target(
            name: "Digest",
            swiftSettings: strictSettings
        ),
        // The one policy for unsafe Unicode scalars, shared by the text pipeline and the renderers.
        .target(
            name: "TextSafety",
            swiftSettings: strictSettings
        ),
        // IMAP's wire format (framing, parsing, encoding, modified UTF-7), pure bytes with no I/O, so the
        // connection and the sync engine share one tested protocol layer.
        .target(
            name: "IMAPProtocol",
            swiftSettings: strictSettings
        ),
        // Gmail's message payload (the `format=full` MIME tree) and base64url: the one model the client,
        // the text pipeline and the emulator share. It sits below all three, which must not depend on
        // one another, and knows nothing of HTTP or MIME parsing.
        .target(
            name: "GmailModel",
            dependencies: [.product(name: "ExtrasBase64", package: "swift-extras-base64")],
            swiftSettings: strictSettings
        ),
        .target(
            name: "MailText",
            dependencies: ["CLibXML2", "TextSafety", "GmailModel"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "ChatmailStore",
            dependencies: [
                "ChatmailSchema",
                "Digest",
                "TextSafety",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            swiftSettings: strictSettings
        ),
        // The Gmail REST client: transport, auth, typed endpoints, batch, retries, quota pacing.
        .target(
            name: "GmailAPI",
            dependencies: ["Digest", "GmailModel", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSettings
        ),
        // The local Gmail API + OAuth emulator (Hummingbird), kept out of the lean `chatmail` binary.
        .target(
            name: "GmailEmulator",
            dependencies: [
                "MailText",
                "Digest",
                "GmailModel",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSettings
        ),
        // Starts the `gmail-emulator` executable as a child process, for the demo, the benchmarks and the
        // end-to-end tests. Foundation only, so every one of them can use it without pulling in the emulator.
        .target(
            name: "EmulatorLauncher",
            swiftSettings: strictSettings
        ),
        // Runs a real Dovecot (Debian's dovecot-imapd) on 127.0.0.1 for the IMAP tests and the benchmark,
        // with its configuration, mail and logs under one directory. Foundation and Glibc only.
        .target(
            name: "DovecotLauncher",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "gmail-emulator",
            dependencies: ["GmailEmulator", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: strictSettings
        ),
        // Typed setters over libcurl's variadic `curl_easy_setopt`, which Swift cannot call, for SMTP.
        .target(
            name: "CCurlShim",
            linkerSettings: [.linkedLibrary("curl")]
        ),
        // Submitting mail over SMTP (implicit TLS, STARTTLS or plain; password or XOAUTH2) with libcurl,
        // telling a refusal from a lost answer, which sending exactly once depends on.
        .target(
            name: "SMTPClient",
            dependencies: ["CCurlShim"],
            swiftSettings: strictSettings
        ),
        // Sync: the sync engine, its Gmail and IMAP orchestrators, the persister mapping and mailbox import.
        .target(
            name: "ChatmailSync",
            dependencies: [
                "ChatmailStore", "MailText", "Digest", "GmailAPI", "GmailModel", "IMAPClient", "IMAPProtocol",
                "SMTPClient",
            ],
            swiftSettings: strictSettings
        ),
        // glibc's wcwidth, which Swift's Glibc module does not show.
        .target(name: "CWidth"),
        // glibc's posix_spawn_file_actions_addclosefrom_np, which Swift's Glibc module does not show.
        .target(name: "CSpawn"),
        // What every output format shares: times and sizes for people, and email-derived text made safe
        // to print (`TerminalSafeText`). Below TerminalUI, JSONOutput and MarkdownExport, so the formats
        // that draw nothing on a terminal need not depend on TerminalUI.
        .target(
            name: "TextFormatting",
            dependencies: ["TextSafety"],
            swiftSettings: strictSettings
        ),
        // Text for a terminal: width, wrapping, colour, glyphs, and the renderers of lists, chats,
        // search results and status, drawn from its own view models: it knows no store type.
        .target(
            name: "TerminalUI",
            dependencies: ["TextFormatting", "CWidth"],
            swiftSettings: strictSettings
        ),
        // A raw-mode terminal on Glibc termios: keys, size, signals, and frames drawn by diffing.
        .target(
            name: "TerminalKit",
            dependencies: ["CWidth"],
            swiftSettings: strictSettings
        ),
        // The views of stored records that TerminalUI draws: the one place records become TerminalUI's view
        // models, so neither module depends on the other.
        .target(
            name: "RecordViews",
            dependencies: ["ChatmailStore", "TerminalUI", "TextFormatting"],
            swiftSettings: strictSettings
        ),
        // The interactive app's pure core: state, events, effects, the reducer and the frame view. It runs
        // nothing itself, so it depends on neither sync nor Gmail: its state holds store records, its keys
        // and frames are TerminalKit's.
        .target(
            name: "ChatmailApp",
            dependencies: ["TerminalKit", "TerminalUI", "TextFormatting", "RecordViews", "ChatmailStore"],
            swiftSettings: strictSettings
        ),
        // The app's runtime: the run loop on a raw terminal, and the effects run against the store, the
        // action queue, the outbox, sync and Gmail, their results fed back to the core as events.
        .target(
            name: "ChatmailAppRuntime",
            dependencies: [
                "ChatmailApp", "ChatmailStore", "ChatmailSync", "GmailAPI", "IMAPClient", "TerminalKit", "TerminalUI",
                "TextFormatting",
            ],
            swiftSettings: strictSettings
        ),
        // The `--json` encodings scripts read. TerminalUI only for `view --json`, which encodes the
        // `MessageView` that `view` builds from a parsed message; nothing here draws on a terminal.
        .target(
            name: "JSONOutput",
            dependencies: ["ChatmailStore", "TextFormatting", "TerminalUI", "TextSafety"],
            swiftSettings: strictSettings
        ),
        // `chatmail export`: Markdown rendering and the files it writes (safe names, atomic writes,
        // up-to-date checks, the index). Attachment bytes come from a fetcher the caller passes in.
        .target(
            name: "MarkdownExport",
            dependencies: ["ChatmailStore", "TextFormatting"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "ChatmailCLI",
            dependencies: [
                "ChatmailApp",
                "ChatmailAppRuntime",
                "ChatmailDemoMailbox",
                "ChatmailStore",
                "ChatmailSync",
                "CSpawn",
                "EmulatorLauncher",
                "GmailAPI",
                "GmailModel",
                "IMAPClient",
                "MailText",
                "SMTPClient",
                "TerminalUI",
                "TextFormatting",
                "RecordViews",
                "JSONOutput",
                "MarkdownExport",
                "TerminalKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "TOMLKit", package: "TOMLKit"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "chatmail",
            dependencies: ["ChatmailCLI"],
            swiftSettings: strictSettings
        ),
        // Scores the text pipeline's bubbles against the expected texts of an evaluation set
        // (`Fixtures/quality`): a library, so its tests run it in-process; `chatmail-bench quality` prints it.
        .target(
            name: "TextQuality",
            dependencies: ["MailText"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "chatmail-bench",
            dependencies: [
                "ChatmailApp",
                "ChatmailAppRuntime",
                "ChatmailStore",
                "ChatmailSync",
                "DovecotLauncher",
                "EmulatorLauncher",
                "IMAPClient",
                "MailText",
                "GmailAPI",
                "GmailEmulator",
                "TerminalKit",
                "TerminalUI",
                "TextFormatting",
                "TextQuality",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ChatmailStoreTests",
            dependencies: ["ChatmailStore", "Digest", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strictSettings
        ),
        // The IMAP client: one pipelined connection on SwiftNIO, with TLS or STARTTLS and SASL login.
        .target(
            name: "IMAPClient",
            dependencies: [
                "IMAPProtocol",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "IMAPClientTests",
            dependencies: [
                "IMAPClient", "IMAPProtocol", "DovecotLauncher", "ChatmailTestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        // SMTP submission against a real SMTP server on loopback (Debian's python3-aiosmtpd).
        .testTarget(
            name: "SMTPClientTests",
            dependencies: ["SMTPClient", "ChatmailTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "IMAPProtocolTests",
            dependencies: ["IMAPProtocol"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "GmailModelTests",
            dependencies: ["GmailModel"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "MailTextTests",
            dependencies: ["MailText", "GmailModel"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "TextQualityTests",
            dependencies: ["TextQuality", "MailText"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "GmailAPITests",
            dependencies: ["ChatmailTestSupport", "GmailAPI", "GmailEmulator", "GmailModel"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "DovecotLauncherTests",
            dependencies: ["DovecotLauncher", "ChatmailTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "GmailEmulatorTests",
            dependencies: [
                "ChatmailTestSupport", "EmulatorLauncher", "GmailEmulator", "GmailModel", "MailText",
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ChatmailSyncTests",
            dependencies: [
                "ChatmailSync", "ChatmailStore", "MailText", "GmailAPI", "GmailEmulator", "IMAPClient", "IMAPProtocol",
                "SMTPClient", .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strictSettings
        ),
        // IMAP sync end to end: a real Dovecot on loopback, real SQLite files.
        .testTarget(
            name: "IMAPSyncTests",
            dependencies: [
                "ChatmailSync", "ChatmailStore", "ChatmailTestSupport", "DovecotLauncher", "IMAPClient", "MailText",
                "SMTPClient", .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strictSettings
        ),
        // What several test targets share: blocking work off the cooperative pool, polling, scratch
        // directories, a tmux driver and an in-process emulator with a session that keeps redirects.
        .target(
            name: "ChatmailTestSupport",
            dependencies: ["GmailEmulator"],
            path: "Tests/ChatmailTestSupport",
            swiftSettings: strictSettings
        ),
        // Reads Markdown back with cmark-gfm, for the export tests of MarkdownExport and the CLI.
        .target(
            name: "CommonMarkTestSupport",
            dependencies: ["ChatmailTestSupport"],
            path: "Tests/CommonMarkTestSupport",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "TerminalUITests",
            dependencies: [
                "TerminalUI", "TextFormatting", "RecordViews", "JSONOutput", "MarkdownExport", "ChatmailStore",
                "MailText",
            ],
            // Golden files are read from the source tree, so `CHATMAIL_UPDATE_GOLDENS=1` can rewrite them.
            exclude: ["Golden"],
            swiftSettings: strictSettings
        ),
        // The reducer and the views, built and tested without the sync engine or a Gmail client.
        .testTarget(
            name: "ChatmailAppTests",
            dependencies: ["ChatmailApp", "ChatmailStore", "MailText", "TerminalKit", "TerminalUI", "TextFormatting"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ChatmailAppRuntimeTests",
            dependencies: ["ChatmailAppRuntime"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "TerminalKitTests",
            dependencies: ["TerminalKit"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "MarkdownExportTests",
            dependencies: [
                "MarkdownExport", "TextFormatting", "ChatmailStore", "ChatmailTestSupport", "CommonMarkTestSupport",
                "MailText",
            ],
            swiftSettings: strictSettings
        ),
        // The command layer in-process: parsing, configuration, settings and exit statuses, no binary.
        .testTarget(
            name: "ChatmailCLIUnitTests",
            dependencies: [
                "ChatmailCLI", "ChatmailStore", "GmailAPI", "TerminalUI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        // System tests: they run the built `chatmail` (and `gmail-emulator`) as a person or a script would.
        .testTarget(
            name: "ChatmailCLITests",
            // Depends on the executable so `swift test` always builds the binary the end-to-end tests run.
            dependencies: [
                "ChatmailCLI", "ChatmailStore", "DovecotLauncher", "EmulatorLauncher", "GmailAPI", "GmailModel",
                "RecordViews", "TerminalUI", "chatmail",
                "ChatmailTestSupport", "CommonMarkTestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strictSettings
        ),
    ]
)
