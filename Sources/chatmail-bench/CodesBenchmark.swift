import ArgumentParser
import ChatmailStore
import Foundation
import GmailEmulator
import MailText

/// `chatmail-bench codes`: what finding one-time codes costs at ingest, and what `chatmail codes` costs
/// on a 100,000-message store.
///
/// - **Detection:** every message of a corpus goes through the text pipeline once (untimed); then the
///   detector runs over all of them, `runs` times, as the persister calls it for each stored message.
/// - **Listing:** a store seeded with `messages` synthetic messages, plus `codes` messages carrying a
///   code in the last day, then `chatmail codes` and `codes --json` timed as whole processes beside
///   `chatmail --help`.
struct CodesBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "codes", abstract: "Time code detection per message, and `chatmail codes` on a 100k store.")

    @Option(help: "The corpus directory (.eml files, searched recursively).") var corpus = "Fixtures/corpus"
    @Option(help: "Messages to seed.") var messages = 100_000
    @Option(help: "Messages with a code among them, in the last day.") var codes = 300
    @Option(help: "Timed runs.") var runs = 11

    func run() throws {
        try detection()
        try listing()
    }

    func detection() throws {
        let files =
            (FileManager.default.enumerator(at: URL(fileURLWithPath: corpus), includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL }.filter { $0.pathExtension == "eml" }) ?? []
        guard !files.isEmpty else { throw ValidationError("no .eml files under \(corpus)") }
        let pipeline = TextPipeline()
        let processed = try files.map { file in
            let message = pipeline.process(raw: [UInt8](try Data(contentsOf: file)))
            return (subject: message.message.subject, text: message.text.text, from: message.message.sender)
        }
        var found = 0
        var times: [Double] = []
        for _ in 0..<runs {
            var hits = 0
            let start = ContinuousClock.now
            for message in processed {
                if VerificationCodeDetector.detect(subject: message.subject, text: message.text, from: message.from)
                    != nil
                {
                    hits += 1
                }
            }
            times.append((ContinuousClock.now - start).seconds)
            found = hits
        }
        let perMessage = times.median / Double(processed.count)
        print(
            String(
                format: "detection: %.1f µs per message (median of %d passes over %d messages); codes found: %d",
                perMessage * 1_000_000, runs, processed.count, found))
    }

    func listing() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("chatmail-bench-codes-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }  // best-effort cleanup of a scratch dir
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let store = try ChatmailStore(
            path: dir.appendingPathComponent("chatmail.sqlite").path, subjectBase: ReplySubject.topicBase)
        let now = ChatmailStore.systemClock()
        let mailbox = SyntheticMailbox(
            messageCount: messages, conversationCount: messages / 10, bigConversationSize: 0, endDateMs: now)
        try mailbox.seed(into: store)
        let account = try store.write { tx in try tx.ensureAccount(email: mailbox.me.address) }
        try store.write { tx in
            var touched = Set<ConversationID>()
            for index in 0..<codes {
                let message = MessageInput(
                    gmailID: "code-\(index)", threadID: "code-\(index)",
                    internalDateMs: now - Int64(index) * 60_000,
                    from: EmailAddress(address: "noreply@service\(index % 7).example", name: "Service \(index % 7)"),
                    to: [EmailAddress(address: mailbox.me.address)], subject: "Your verification code",
                    bodyText: "Your verification code is \(100_000 + index).", labelIDs: ["INBOX"],
                    verificationCode: VerificationCodeInput(code: String(100_000 + index), service: "Service"))
                touched.formUnion(try tx.upsert(message, in: account).affectedConversations)
            }
            try tx.recomputeRollups(for: touched)
        }
        print("seeded \(messages) messages, \(codes) of them with a code in the last \(codes) minutes")

        let chatmail = try ProcessTimer.siblingExecutable(named: "chatmail")
        let environment = ProcessInfo.processInfo.environment.merging(["CHATMAIL_HOME": dir.path, "NO_COLOR": "1"]) {
            $1
        }
        for arguments in [["--help"], ["codes"], ["codes", "--json"], ["codes", "--latest"]] {
            let times = try ProcessTimer.time(chatmail, arguments: arguments, environment: environment, runs: runs)
            print(
                String(
                    format: "chatmail %@: median %.1f ms of %d", arguments.joined(separator: " "), times.median * 1000,
                    runs))
        }
        let queries = try (0..<runs).map { _ in
            let start = ContinuousClock.now
            _ = try store.verificationCodes(in: account, sinceMs: now - 86_400_000)
            return (ContinuousClock.now - start).seconds
        }
        print(String(format: "the query alone: median %.2f ms of %d", queries.median * 1000, runs))
    }
}
