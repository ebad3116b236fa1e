import ChatmailStore
import Foundation

/// Fixtures taller than a terminal, for the paging tests in ``RealTerminalTests``.
extension CLIFixture {
    /// `count` messages with Colin Dexter, alternating between him and me an hour apart, "Message 1" the
    /// oldest: fifty are far taller than a 24-row screen.
    func seedLongChat(count: Int = 50) throws {
        let me = EmailAddress(address: "me@example.org", name: "Me")
        let colin = EmailAddress(address: "colin@example.com", name: "Colin Dexter")
        let messages = (1...count).map { number in
            let mine = number.isMultiple(of: 2)
            return MessageInput(
                gmailID: "c\(number)", threadID: "t-colin",
                internalDateMs: Self.now - Int64(count + 1 - number) * 3_600_000,
                from: mine ? me : colin, to: [mine ? colin : me], subject: "Chat",
                bodyText: "Message \(number) of our long chat.", labelIDs: mine ? ["SENT"] : ["INBOX"])
        }
        try seed(messages, account: me)
    }

    /// Sixty people who each wrote once, "Person 1" the newest: a list longer than a 24-row screen.
    func seedManyPeople() throws {
        let me = EmailAddress(address: "me@example.org", name: "Me")
        let messages = (1...60).map { number in
            MessageInput(
                gmailID: "p\(number)", threadID: "t-p\(number)", internalDateMs: Self.now - Int64(number) * 3_600_000,
                from: EmailAddress(address: "person\(number)@example.com", name: "Person \(number)"), to: [me],
                subject: "Hello", bodyText: "Hello from person \(number).", labelIDs: ["INBOX"])
        }
        try seed(messages, account: me)
    }

    /// Stores `messages` in the account of `me` (created when needed) and rolls up their conversations.
    func seed(_ messages: [MessageInput], account me: EmailAddress) throws {
        try store.write { tx in
            let account = try tx.ensureAccount(email: me.address)
            var touched = Set<ConversationID>()
            for message in messages { touched.formUnion(try tx.upsert(message, in: account).affectedConversations) }
            try tx.recomputeRollups(for: touched)
        }
    }
}
