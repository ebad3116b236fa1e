import Foundation

/// Who a reply to a conversation goes to, and from which of the account's addresses.
///
/// A pure function of what the store knows about the conversation and its latest message. Addresses are
/// compared through a `normalize` function the caller passes (lowercasing by default; the caller adds
/// Gmail's dot and `+tag` rules for gmail.com addresses), so `Ann@X.org` and `ann@x.org` are one person.
///
/// The rules:
/// 1. **Conversation (one-to-one or group).** Every participant receives the reply except the account's own
///    addresses: leaving someone out of a group conversation is never what a chat-style reply means. When
///    the latest message has a Reply-To, its author asked for answers to go there (a `noreply@` sender, a
///    personal address behind a role address): the Reply-To addresses are added, and the author is left
///    out unless the Reply-To names them too. The latest message's reply target (Reply-To, else From)
///    comes first, then the other participants in the order given. Anyone who was only in the latest
///    message's Cc stays in Cc; everyone else is in To. When that leaves To empty, the Cc recipients move
///    up to To.
/// 2. **Mailing list.** The reply goes to the list, as mutt's list-reply does: if the latest message has
///    a Mail-Followup-To, To is its addresses minus the account's own (its author asked for exactly that);
///    otherwise To is the list's posting address. Reply-To is not used for a list reply: a Reply-To that
///    names the list (a list that munges it) changes nothing, and one that names somebody else is a request
///    for a private answer, which is a different command. Cc is empty.
/// 3. **A list without a posting address** (read-only, or its address unknown) and no Mail-Followup-To:
///    ``ReplyAddressingError/listDoesNotAcceptPosts(_:)``.
/// 4. **Nobody left** (a conversation with only yourself, or a Mail-Followup-To naming only you): the reply
///    goes to the From address chosen below, as a note to self, rather than failing.
///
/// The From address is the own address the latest message was addressed to: the first one found in its
/// To, then its Cc, then its From (a reply to your own message keeps the alias you wrote it from); else
/// the primary address. The returned mailbox is the caller's own (with the display name it configured),
/// not the spelling in the message.
///
/// Lists keep their first-seen order; duplicates (after normalizing) are removed, keeping the first
/// display name found.
public enum ReplyAddressing {
    /// The kind of conversation being answered.
    public enum Conversation: Sendable, Equatable {
        /// One-to-one or group mail.
        case direct
        /// A mailing-list discussion; `posting` is where members post (`List-Post`), `nil` when the list
        /// is read-only or its address is unknown. `name` is what an error shows.
        case mailingList(name: String, posting: MailAddress?)
    }

    /// The address headers of the conversation's latest message.
    public struct LatestMessage: Sendable, Equatable {
        public var from: [MailAddress]
        public var to: [MailAddress]
        public var cc: [MailAddress]
        public var replyTo: [MailAddress]
        public var mailFollowupTo: [MailAddress]

        public init(
            from: [MailAddress], to: [MailAddress] = [], cc: [MailAddress] = [], replyTo: [MailAddress] = [],
            mailFollowupTo: [MailAddress] = []
        ) {
            self.from = from
            self.to = to
            self.cc = cc
            self.replyTo = replyTo
            self.mailFollowupTo = mailFollowupTo
        }
    }

    /// The addressing of a reply.
    public struct Recipients: Sendable, Equatable {
        public var from: MailAddress
        public var to: [MailAddress]
        public var cc: [MailAddress]

        public init(from: MailAddress, to: [MailAddress], cc: [MailAddress] = []) {
            self.from = from
            self.to = to
            self.cc = cc
        }
    }

    /// Applies the rules above.
    /// - Parameters:
    ///   - participants: everyone in the conversation, in the order to keep (the caller's order).
    ///   - primary: the account's own address, used for From when no alias was addressed.
    ///   - aliases: the account's other send-as addresses.
    ///   - normalize: maps an address to the form two addresses of one mailbox share.
    public static func recipients(
        participants: [MailAddress], primary: MailAddress, aliases: [MailAddress] = [], conversation: Conversation,
        latest: LatestMessage, normalize: (String) -> String = { $0.lowercased() }
    ) throws(ReplyAddressingError) -> Recipients {
        let own = [primary] + aliases
        let ownKeys = Set(own.map { normalize($0.address) })
        func isOwn(_ mailbox: MailAddress) -> Bool { ownKeys.contains(normalize(mailbox.address)) }
        let from = sender(own: own, latest: latest, normalize: normalize) ?? primary

        var to: [MailAddress]
        var cc: [MailAddress] = []
        switch conversation {
        case .mailingList(let name, let posting):
            if !latest.mailFollowupTo.isEmpty {
                to = latest.mailFollowupTo
            } else if let posting {
                to = [posting]
            } else {
                throw .listDoesNotAcceptPosts(name)
            }
        case .direct:
            let author = latest.from
            let target = latest.replyTo.isEmpty ? author : latest.replyTo
            let targetKeys = Set(target.map { normalize($0.address) })
            let dropped = Set(author.map { normalize($0.address) }).subtracting(targetKeys)
            let everyone = (target + participants).filter { !dropped.contains(normalize($0.address)) }
            let toKeys = targetKeys.union(latest.to.map { normalize($0.address) })
            let ccKeys = Set(latest.cc.map { normalize($0.address) }).subtracting(toKeys)
            to = everyone.filter { !ccKeys.contains(normalize($0.address)) }
            cc = everyone.filter { ccKeys.contains(normalize($0.address)) }
        }
        to = unique(to.filter { !isOwn($0) }, normalize: normalize)
        let toKeys = Set(to.map { normalize($0.address) })
        cc = unique(cc.filter { !isOwn($0) && !toKeys.contains(normalize($0.address)) }, normalize: normalize)
        if to.isEmpty { (to, cc) = (cc, []) }
        if to.isEmpty { to = [from] }
        return Recipients(from: from, to: to, cc: cc)
    }

    /// The own mailbox the latest message reached (To, then Cc) or came from; `nil` when none.
    private static func sender(own: [MailAddress], latest: LatestMessage, normalize: (String) -> String)
        -> MailAddress?
    {
        for mailbox in latest.to + latest.cc + latest.from {
            let key = normalize(mailbox.address)
            if let match = own.first(where: { normalize($0.address) == key }) { return match }
        }
        return nil
    }

    /// The mailboxes without repeats, in first-seen order; a repeat may supply a missing display name.
    private static func unique(_ mailboxes: [MailAddress], normalize: (String) -> String) -> [MailAddress] {
        var result: [MailAddress] = []
        var positions: [String: Int] = [:]
        for mailbox in mailboxes {
            let key = normalize(mailbox.address)
            if let position = positions[key] {
                if result[position].name == nil { result[position].name = mailbox.name }
            } else {
                positions[key] = result.count
                result.append(mailbox)
            }
        }
        return result
    }
}

/// Why a reply cannot be addressed.
public enum ReplyAddressingError: Error, Sendable, Equatable {
    /// The conversation is a mailing list that takes no posts (or whose posting address is unknown).
    case listDoesNotAcceptPosts(String)
}

extension ReplyAddressingError: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case .listDoesNotAcceptPosts(let list): "\(list) does not accept posts."
        }
    }
}
