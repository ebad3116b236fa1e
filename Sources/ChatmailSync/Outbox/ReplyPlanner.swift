import ChatmailStore
import Foundation
import MailText

/// Turns what the user wrote into a ``QueuedMessage``: who it goes to, from which of the account's
/// addresses, under which subject, in which thread.
///
/// The rules (also in `Docs/REPLY.md`):
/// - a reply goes to every participant except the account's own addresses; in a mailing-list
///   conversation, to the Mail-Followup-To of the latest message if it has one, else to the list's
///   posting address (a Reply-To that names someone else is not used for a list reply);
/// - it is sent from the own address the latest message was addressed to, else the primary address;
/// - its subject is `Re: ` and the latest subject without its reply prefixes;
/// - it joins the latest message's Gmail thread, and threads on its Message-ID (made when it is sent).
public enum ReplyPlanner {
    /// Why a reply or message cannot be queued.
    public enum Failure: Error, Sendable, Equatable {
        /// The conversation has no message Gmail knows, so there is nothing to answer.
        case nothingToAnswer(String)
        /// A read-only list (`List-Post: NO`), or one whose posting address is unknown.
        case listDoesNotAcceptPosts(String)
        /// The account has no address on record (it has never synced).
        case noOwnAddress
        /// What was given as an address is not one mail address.
        case notAnAddress(String)
    }

    /// The reply to `context`'s conversation saying `text`; with `quote`, the answered message is quoted
    /// above it under an attribution line.
    public static func reply(to context: ReplyContext, text: String, quote: Bool, timeZone: TimeZone) throws
        -> QueuedMessage
    {
        guard let primary = context.ownAddresses.first else { throw Failure.noOwnAddress }
        guard let parent = context.parent else { throw Failure.nothingToAnswer(context.conversation.title) }
        let conversation: ReplyAddressing.Conversation
        if let list = context.conversation.list {
            conversation = .mailingList(
                name: list.name ?? list.id, posting: list.postAddress.map { MailAddress(address: $0) })
        } else {
            conversation = .direct
        }
        let recipients: ReplyAddressing.Recipients
        do {
            recipients = try ReplyAddressing.recipients(
                participants: context.conversation.participants.map(mail), primary: mail(primary),
                aliases: context.ownAddresses.dropFirst().map(mail), conversation: conversation,
                latest: ReplyAddressing.LatestMessage(
                    from: parent.from.map { [mail($0)] } ?? [], to: parent.to.map(mail), cc: parent.cc.map(mail),
                    replyTo: parent.replyTo?.map(mail) ?? [], mailFollowupTo: parent.mailFollowupTo?.map(mail) ?? []),
                normalize: { EmailAddress(address: $0).normalizedAddress })
        } catch .listDoesNotAcceptPosts(let name) {
            throw Failure.listDoesNotAcceptPosts(name)
        }
        var body = text
        if quote, let author = parent.from {
            body = ReplyQuote(
                author: mail(author), date: Date(timeIntervalSince1970: Double(parent.internalDateMs) / 1000),
                timeZone: timeZone, text: parent.bodyText
            ).withReplyBelow(text)
        }
        return QueuedMessage(
            from: email(recipients.from), to: recipients.to.map(email), cc: recipients.cc.map(email),
            subject: ReplySubject.make(from: parent.subject), body: body, parentGmailID: parent.gmailID,
            threadID: parent.threadID, quote: quote, target: "reply to \(context.conversation.title)")
    }

    /// A new message from the primary address to `recipients`.
    public static func newMessage(
        to recipients: [EmailAddress], subject: String, text: String, ownAddresses: [EmailAddress]
    ) throws -> QueuedMessage {
        guard let primary = ownAddresses.first else { throw Failure.noOwnAddress }
        let names = recipients.map(\.address).joined(separator: ", ")
        return QueuedMessage(
            from: primary, to: recipients, subject: subject, body: text, target: "message to \(names)")
    }

    /// One address as a person types it (`ann@example.com`, `Ann <ann@example.com>`).
    /// - throws: ``Failure/notAnAddress(_:)`` for anything else, a list of several included.
    public static func recipient(_ text: String) throws -> EmailAddress {
        let parsed = AddressListParser.parse(text)
        guard parsed.count == 1, let mailbox = parsed.first, mailbox.address.contains("@") else {
            throw Failure.notAnAddress(text)
        }
        return email(mailbox)
    }

    /// An address as MailText's composer takes it.
    public static func mail(_ address: EmailAddress) -> MailAddress {
        MailAddress(name: address.name, address: address.address)
    }

    static func email(_ address: MailAddress) -> EmailAddress { MessageInputBuilder.emailAddress(address) }
}

extension ReplyPlanner.Failure: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case .nothingToAnswer(let title):
            "The conversation with \(title) has no message from Gmail to answer yet; use `chatmail send`."
        case .listDoesNotAcceptPosts(let name):
            "\(name) does not accept posts (its List-Post is NO or unknown)."
        case .noOwnAddress:
            "The account's own address is not known yet. Run `chatmail sync` first."
        case .notAnAddress(let text):
            "\(text) is not one mail address."
        }
    }
}
