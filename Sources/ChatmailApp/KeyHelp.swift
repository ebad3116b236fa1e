/// Every key the app knows, as the help overlay lists them. Kept beside the reducer's key handling so a
/// test can check each one listed is one the reducer answers.
public enum KeyHelp {
    public struct Entry: Sendable, Equatable {
        public var keys: String
        public var meaning: String
    }

    public static let sections: [(title: String, entries: [Entry])] = [
        (
            "Moving",
            [
                Entry(keys: "j k ↓ ↑", meaning: "next, previous (scroll in a conversation)"),
                Entry(keys: "g G", meaning: "first, last (top, bottom)"),
                Entry(keys: "Enter", meaning: "open the conversation"),
                Entry(keys: "Esc", meaning: "back"),
                Entry(keys: "PgUp PgDn Space", meaning: "scroll the conversation a page"),
            ]
        ),
        (
            "Acting",
            [
                Entry(keys: "e", meaning: "archive (move back to the inbox when archived)"),
                Entry(keys: "u", meaning: "mark read, or unread when already read"),
                Entry(keys: "s", meaning: "star (unstar when starred)"),
                Entry(keys: "#", meaning: "trash"),
                Entry(keys: "U", meaning: "undo the last action"),
                Entry(keys: "r", meaning: "reply"),
                Entry(keys: "c", meaning: "new message"),
            ]
        ),
        (
            "Writing",
            [
                Entry(keys: "Enter", meaning: "send (next field of a new message)"),
                Entry(keys: "Alt-Enter", meaning: "new line"),
                Entry(keys: "Ctrl-E", meaning: "edit in $EDITOR"),
                Entry(keys: "Esc", meaning: "cancel"),
            ]
        ),
        (
            "Elsewhere",
            [
                Entry(keys: "/", meaning: "search as you type; Enter opens a hit, Esc cancels"),
                Entry(
                    keys: "f", meaning: "next filter: inbox, unread, people, lists, newsletters, all, screener"),
                Entry(keys: "p", meaning: "pending actions: R retry, D dismiss, Esc back"),
                Entry(keys: "C", meaning: "codes from the last 24 hours: Enter opens one's mail, Esc closes"),
                Entry(keys: "S", meaning: "sync now"),
                Entry(keys: "?", meaning: "this help (any key closes it)"),
                Entry(keys: "q Ctrl-C", meaning: "quit"),
            ]
        ),
    ]
}
