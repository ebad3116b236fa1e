/// Everything needed to start an emulator: where the mailbox comes from and how strict to be.
public struct EmulatorConfiguration: Sendable {
    /// Where the initial mailbox comes from.
    public enum MailboxSource: Sendable {
        case empty
        /// A directory of `.eml` files (optional `labels.json` sidecar), an mbox file or one message file.
        case path(String)
        /// `count` deterministic messages generated from the seed.
        case synthetic(count: Int)
        /// Raw messages with optional label names each (tests).
        case messages([(raw: [UInt8], labels: [String]?)])
    }

    public var host = "127.0.0.1"
    /// 0 lets the OS choose; the real port is in `RunningEmulator.baseURL`.
    public var port = 0
    public var account = "me@example.com"
    /// The account's other sendAs addresses (aliases).
    public var aliases: [String] = []
    public var mailbox: MailboxSource = .empty
    public var seed: UInt64 = 1
    /// Quota enforcement rate in units per second (`nil` = account only, never refuse).
    public var quotaUnitsPerSecond: Double?
    /// The time the quota bucket refills by: real time unless a test steps it.
    public var quotaClock: QuotaClock = .continuous
    /// History records retained (`nil` = all).
    public var historyRetention: Int?
    public var oauth = OAuthServer.Settings()
    /// A file where changes to the mailbox and issued logins are kept across restarts (`nil` = none:
    /// every start serves the mailbox as loaded). See ``MailboxJournal``.
    public var journalPath: String?
    /// Leaf parts larger than this get an `attachmentId` instead of inline data.
    public var inlineBodyLimit = 512 * 1024

    public init() {}
}
