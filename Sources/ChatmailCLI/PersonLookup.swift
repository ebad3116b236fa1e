import ArgumentParser
import ChatmailStore
import Foundation
import TerminalUI

/// Turning `<person>` into a conversation, and a conversation back into the command that opens it.
enum PersonLookup {
    /// The help of every `<person>` argument (and `search --person`).
    static let personHelp = "An address, a name, a unique prefix of one, or a conversation id (id:7)."

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
        when there are several.
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

    /// `chatmail show <who>` for a conversation: the address of a one-to-one chat, which reads best and
    /// always opens it; else the conversation's id, since titles are made of first names and need not
    /// be unique.
    static func showCommand(for conversation: ConversationSummary) -> String {
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
