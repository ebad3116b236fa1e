import ChatmailStore
import Foundation
import TerminalUI
import TextFormatting

/// The message being written at the bottom of the screen: a reply, or a new message that first asks
/// for its addresses and subject.
///
/// The text is an array of characters with the cursor an index into it, so every edit is an O(1)
/// index computation rather than a walk over `String.Index`es; line breaks are `\n` characters, which
/// Alt-Enter and pastes insert.
public struct Composer: Sendable, Equatable {
    /// What the composer is for.
    public enum Purpose: Sendable, Equatable {
        case reply(ConversationID, title: String)
        case newMessage
    }

    /// Which part of a new message is being typed; a reply has only ``text``.
    public enum Stage: Sendable, Equatable {
        case addresses, subject, text
    }

    public var purpose: Purpose
    public var stage: Stage
    public var characters: [Character] = []
    /// Where the next character goes: 0 … `characters.count`.
    public var cursor = 0
    /// The addresses a new message goes to, once given.
    public var addresses: [String] = []
    public var subject = ""
    /// Whether an external editor has the text: keys wait until it comes back.
    public var isInEditor = false

    /// At most this many lines of a multi-line text are shown; the rest scroll.
    public static let maximumVisibleLines = 5

    public init(purpose: Purpose) {
        self.purpose = purpose
        switch purpose {
        case .reply: stage = .text
        case .newMessage: stage = .addresses
        }
    }

    public var text: String { String(characters) }

    /// The prompt before the text, which says what the line is for (the view adds the space after it).
    public var prompt: String {
        switch (purpose, stage) {
        case (.reply(_, let title), _): "Reply to " + title + ":"
        case (.newMessage, .addresses): "To:"
        case (.newMessage, .subject): "Subject:"
        case (.newMessage, .text): "Message:"
        }
    }

    /// Rows the composer takes at the bottom: its lines, up to ``maximumVisibleLines``.
    public var visibleRowCount: Int { min(Self.maximumVisibleLines, lines.count) }

    /// The text's lines (at least one).
    public var lines: [String] {
        characters.split(separator: "\n", omittingEmptySubsequences: false).map { String($0) }
    }

    /// The line the cursor is on and how many characters of it come before the cursor.
    public var cursorLine: (line: Int, offset: Int) {
        var line = 0
        var start = 0
        for index in 0..<cursor where characters[index] == "\n" {
            line += 1
            start = index + 1
        }
        return (line, cursor - start)
    }

    /// Sets the text and puts the cursor at its end (after a paste into an empty field, or the editor).
    public mutating func replaceText(_ text: String) {
        characters = Array(text)
        cursor = characters.count
    }

    public mutating func insert(_ text: String) {
        // Pasted text may hold escape sequences or carriage returns; the composer keeps only what it can
        // draw, and a tab, which a terminal would widen to its next stop, becomes a space.
        let normalized = TerminalSafeText.sanitize(text).replacingOccurrences(of: "\t", with: " ")
        // The address and subject fields are one line: a pasted break there becomes a space.
        let inserted = stage == .text ? Array(normalized) : normalized.map { $0 == "\n" ? " " : $0 }
        characters.insert(contentsOf: inserted, at: cursor)
        cursor += inserted.count
    }

    public mutating func deleteBackward() {
        guard cursor > 0 else { return }
        cursor -= 1
        characters.remove(at: cursor)
    }

    public mutating func deleteForward() {
        guard cursor < characters.count else { return }
        characters.remove(at: cursor)
    }

    public mutating func moveLeft() { cursor = max(0, cursor - 1) }
    public mutating func moveRight() { cursor = min(characters.count, cursor + 1) }

    /// To the start of the cursor's line.
    public mutating func moveToLineStart() {
        while cursor > 0 && characters[cursor - 1] != "\n" { cursor -= 1 }
    }

    /// To the end of the cursor's line.
    public mutating func moveToLineEnd() {
        while cursor < characters.count && characters[cursor] != "\n" { cursor += 1 }
    }

    /// The typed text without surrounding blank space: what Enter hands on, empty when nothing was typed.
    var trimmedText: String { text.trimmingCharacters(in: .whitespacesAndNewlines) }

    /// The addresses typed in the `To:` field, split at commas, semicolons and spaces.
    var typedAddresses: [String] {
        text.split(whereSeparator: { $0 == "," || $0 == ";" || $0.isWhitespace }).map(String.init)
    }
}
