import ArgumentParser
import ChatmailStore
import Foundation
import TerminalUI
import TextFormatting

/// Turning `<person>` into a conversation, and a conversation back into the command that opens it.
enum PersonLookup {
    /// The help of every `<person>` argument (and `search --person`).
    static let personHelp =
        "An address, a name, a unique prefix of one, a mailing list's name, id or posting address, or a conversation id (id:7)."

    /// The help of every `--group` flag.
    static let groupHelp = ArgumentHelp(
        "Use the person's group conversation rather than the one-to-one chat (when they are in several, they are listed)."
    )

    /// How commands that take `<person>` explain it, for their discussion.
    static let discussion = """
        <person> is an address, a name or a unique prefix of one, or a conversation id written id:7 (the id \
        that `chatmail conversations --json` prints; #7 works too, quoted in the shell). When it matches several \
        people, they are listed with how many conversations each is in, and chatmail exits with status 2. A \
        person's one-to-one chat is used even when they are also in group conversations; those are named on \
        stderr, with their ids. --group uses the person's group conversation instead, and lists them (exit 2) \
        when there are several. A mailing list is one conversation, named by its name, its id or its posting \
        address; someone who only ever wrote to lists designates the list they wrote to (said on stderr), or \
        the lists, listed (exit 2).
        """

    /// The one conversation `query` designates. When that is a person's one-to-one chat and they are
    /// also in group conversations, one line on stderr names those and how to pick one.
    /// - throws: ``CommandError/personNotFound(_:)``, ``CommandError/personAmbiguous(_:people:conversations:)``
    ///   or ``CommandError/noGroupConversation(_:_:)``.
    static func conversation(
        for query: String, in store: ChatmailStore, account: AccountID, allowingFuzzy: Bool = true,
        preferringGroups: Bool = false
    ) throws -> ConversationSummary {
        switch try store.resolvePerson(
            query, in: account, allowingFuzzy: allowingFuzzy, preferringGroups: preferringGroups)
        {
        case .found(let match, let groups):
            if !groups.isEmpty {
                FileHandle.standardError.write(
                    Data(otherConversationsNote(query: query, chosen: match, groups: groups).utf8))
            }
            return match
        case .wroteToList(let list, let person):
            FileHandle.standardError.write(Data(listNote(list: list, person: person).utf8))
            return list
        case .severalPeople(let people, let conversations):
            throw CommandError.personAmbiguous(query, people: people, conversations: conversations)
        case .severalConversations(let conversations):
            throw CommandError.personAmbiguous(query, people: [], conversations: conversations)
        case .noGroupConversation(let person):
            throw CommandError.noGroupConversation(query, person)
        case .notFound:
            throw CommandError.personNotFound(query)
        }
    }

    /// At most this many group conversations are named in the note.
    static let maximumGroupsNamed = 3

    /// `chatmail: using the one-to-one chat with Alice Liddell, who is also in 1 group conversation:
    /// "Alice, Bob" (id:4). …` on one line.
    static func otherConversationsNote(query: String, chosen: ConversationSummary, groups: [ConversationSummary])
        -> String
    {
        let named = groups.prefix(maximumGroupsNamed).map {
            "\(EchoedInput.quoted($0.title)) (\(CandidateLine.reference(to: $0)))"
        }
        let more = groups.count > maximumGroupsNamed ? " and \(groups.count - maximumGroupsNamed) more" : ""
        let count = groups.count == 1 ? "1 group conversation" : "\(groups.count) group conversations"
        let which = groups.count == 1 ? "that one" : "one of those"
        return
            "chatmail: using the one-to-one chat with \(EchoedInput.excerpt(chosen.title)), who is also in \(count): "
            + named.joined(separator: ", ") + more
            + ". For \(which), add --group or give its id instead of \(EchoedInput.quoted(query)).\n"
    }

    /// `chatmail: Lukasz Nowak is in no conversation of yours but the mailing list "Dev talk" (id:7); using
    /// that.` on one line: the user asked for a person and is shown a list.
    static func listNote(list: ConversationSummary, person: PersonCandidate) -> String {
        return "chatmail: \(CandidateLine.name(of: person)) is in no conversation of yours but the mailing list "
            + "\(EchoedInput.quoted(list.title)) (\(CandidateLine.reference(to: list))); using that.\n"
    }

    /// The one person among `conversation`'s participants that `query` designates, for `show --from`: the
    /// same address (by identity key), else a case-insensitive full name, else a prefix of an address, a
    /// name or a word of one; the first of these that matches anyone decides.
    /// - throws: ``CommandError/senderNotFound(_:conversation:)`` or
    ///   ``CommandError/senderAmbiguous(_:senders:)``.
    static func sender(_ query: String, in conversation: ConversationSummary) throws -> EmailAddress {
        let needle = query.trimmingCharacters(in: .whitespaces).lowercased()
        let people = conversation.participants
        let key = EmailNormalizer.identityKey(for: needle)
        let stages: [(EmailAddress) -> Bool] = [
            { needle.contains("@") && $0.normalizedAddress == key },
            { $0.name?.lowercased() == needle },
            { person in
                let name = person.name?.lowercased() ?? ""
                let words = name.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "." })
                return person.address.lowercased().hasPrefix(needle) || name.hasPrefix(needle)
                    || words.contains { $0.hasPrefix(needle) }
            },
        ]
        for stage in stages where !needle.isEmpty {
            let found = people.filter(stage)
            if found.count == 1 { return found[0] }
            if found.count > 1 {
                throw CommandError.senderAmbiguous(
                    query,
                    senders: found.map { PersonCandidate(address: $0.address, name: $0.name, conversationCount: 1) })
            }
        }
        throw CommandError.senderNotFound(query, conversation: conversation.title)
    }

    /// `chatmail show <who>` for a conversation: a mailing list's posting address (or id), or the address
    /// of a one-to-one chat, which read best and always open it; else the conversation's id, since titles
    /// are made of first names and need not be unique.
    static func showCommand(for conversation: ConversationSummary) -> String {
        if let list = conversation.list {
            return "chatmail show " + shellWord(list.postAddress ?? list.id)
        }
        if conversation.participants.count == 1 {
            return "chatmail show " + shellWord(conversation.participants[0].address)
        }
        return "chatmail show " + CandidateLine.reference(to: conversation)
    }

    /// `text` as one shell word: bare when it only has safe characters, else single-quoted.
    static func shellWord(_ text: String) -> String {
        let safe = TerminalSafeText.singleLine(text)
        let plain =
            !safe.isEmpty
            && safe.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                    || "@._+-%/:=".unicodeScalars.contains($0)
            }
        return plain ? safe : "'" + safe.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
