import Foundation
import TextSafety

/// The text of one message, ready for a bubble.
public struct MessageText: Sendable, Equatable {
    /// Where the text came from.
    public enum Source: String, Sendable, Equatable {
        case plain, html, none
    }

    /// The bubble text: quotes, attributions and signatures removed, hard wraps joined.
    public var text: String
    /// The whole text before anything was removed, for `--full`.
    public var originalText: String
    /// `true` when a quote, attribution or signature was removed.
    public var quotedTextRemoved: Bool
    /// `true` when the message forwards another one (the forwarded content is kept and marked).
    public var forwarded: Bool
    /// The allow-list-sanitized HTML body, when the message had one.
    public var sanitizedHTML: String?
    public var source: Source

    public init(
        text: String, originalText: String, quotedTextRemoved: Bool, forwarded: Bool, sanitizedHTML: String?,
        source: Source
    ) {
        self.text = text
        self.originalText = originalText
        self.quotedTextRemoved = quotedTextRemoved
        self.forwarded = forwarded
        self.sanitizedHTML = sanitizedHTML
        self.source = source
    }
}

/// A parsed message with its bubble text and newsletter classification.
public struct ProcessedMessage: Sendable, Equatable {
    public var message: ParsedMessage
    public var text: MessageText
    public var newsletter: NewsletterClassification
}

/// The text pipeline, in the order that keeps each rule able to see what it needs (a later step would
/// otherwise hide its markers from an earlier one: unwrapped lines no longer start with `>`):
///
/// MIME parse → choose the body → decode its charset → if HTML: sanitize, remove quote containers in the
/// DOM, extract text → find quotes, attributions and signatures on raw lines → strip them → unwrap
/// hard-wrapped lines (or undo format=flowed) → neutralize unsafe scalars.
///
/// The original text is kept for `--full`, and a message whose text is entirely quote keeps it: a
/// bubble is never empty when the message has text.
public struct TextPipeline: Sendable {
    public var sanitizer: HTMLSanitizer
    public var twinHTML: TwinHTML

    /// What becomes of the HTML part when its plain twin gives the text.
    public enum TwinHTML: Sendable {
        /// Sanitized into ``MessageText/sanitizedHTML``, for a viewer that shows it.
        case sanitized
        /// Left alone: the store keeps text only, and sanitizing a part nobody reads was 2% of an import.
        case skipped
    }

    public init(sanitizer: HTMLSanitizer = HTMLSanitizer(), twinHTML: TwinHTML = .sanitized) {
        self.sanitizer = sanitizer
        self.twinHTML = twinHTML
    }

    /// Parses and processes raw RFC 5322 bytes.
    public func process(raw: [UInt8], gmailLabels: [String] = []) -> ProcessedMessage {
        process(ParsedMessage(raw: raw), gmailLabels: gmailLabels)
    }

    /// Processes a message parsed by either door.
    public func process(_ message: ParsedMessage, gmailLabels: [String] = []) -> ProcessedMessage {
        ProcessedMessage(
            message: message, text: text(of: message),
            newsletter: NewsletterClassifier.classify(
                headers: message.root.headers, from: message.sender, gmailLabels: gmailLabels))
    }

    /// The bubble text of a parsed message.
    ///
    /// The plain part is used when it is a real twin of the HTML (not an "open this in a browser" stub,
    /// and not much shorter than the HTML's text); otherwise the HTML is converted.
    public func text(of message: ParsedMessage) -> MessageText {
        if let plain = message.plainPart {
            let plainText = plain.text
            if let html = message.htmlPart, !Self.isRealTwin(plain: plainText, html: html.text) {
                return text(ofHTML: html.text)
            }
            var result = text(
                ofPlain: plainText, isFlowed: plain.parameters["format"]?.lowercased() == "flowed",
                delSp: plain.parameters["delsp"]?.lowercased() == "yes",
                isForward: ForwardDetector.isForwardSubject(message.subject))
            if let html = message.htmlPart, twinHTML == .sanitized {
                result.sanitizedHTML = sanitizer.sanitize(html.text)
            }
            return result
        }
        if let html = message.htmlPart { return text(ofHTML: html.text) }
        return MessageText(
            text: "", originalText: "", quotedTextRemoved: false, forwarded: false, sanitizedHTML: nil, source: .none)
    }

    /// The bubble text of a bare text/plain body; `isForward` when the subject marks a forward ("Fwd:").
    public func text(ofPlain raw: String, isFlowed: Bool = false, delSp: Bool = false, isForward: Bool = false)
        -> MessageText
    {
        let normalized = Self.normalizeLineBreaks(raw)
        let cleaning = PlainTextCleaner.clean(normalized, isFlowed: isFlowed, delSp: delSp, isForward: isForward)
        let original = isFlowed ? FormatFlowed.decode(normalized, delSp: delSp) : normalized
        return finish(
            text: cleaning.text, original: original, removed: cleaning.removedQuote || cleaning.removedSignature,
            forwarded: cleaning.forwarded, sanitizedHTML: nil, source: .plain)
    }

    /// The bubble text of a bare text/html body.
    public func text(ofHTML html: String) -> MessageText {
        let sanitized = sanitizer.sanitize(html)
        let conversion = HTMLToText.convert(sanitized)
        // The HTML's own line structure is already right (blocks are lines): quotes and signatures are
        // cut on its lines, but nothing is unwrapped or flowed-decoded.
        let lines = conversion.text.split(separator: "\n", omittingEmptySubsequences: false)
        let quotes = QuoteStripper.strip(lines)
        let signature = SignatureStripper.strip(quotes.kept)
        return finish(
            text: signature.kept.joined(separator: "\n"), original: conversion.fullText,
            removed: conversion.removedQuotes || quotes.removed || signature.removed,
            forwarded: quotes.forwarded, sanitizedHTML: sanitized, source: .html)
    }

    private func finish(
        text: String, original: String, removed: Bool, forwarded: Bool, sanitizedHTML: String?,
        source: MessageText.Source
    ) -> MessageText {
        let safeText = Self.trimmed(UnsafeScalars.neutralize(text))
        let safeOriginal = Self.trimmed(UnsafeScalars.neutralize(original))
        // Never an empty bubble when the message has text.
        if safeText.isEmpty && !safeOriginal.isEmpty {
            return MessageText(
                text: safeOriginal, originalText: safeOriginal, quotedTextRemoved: false, forwarded: forwarded,
                sanitizedHTML: sanitizedHTML, source: source)
        }
        return MessageText(
            text: safeText, originalText: safeOriginal, quotedTextRemoved: removed && safeText != safeOriginal,
            forwarded: forwarded, sanitizedHTML: sanitizedHTML, source: source)
    }

    /// A plain part is a real twin when it is not a stub and carries at least a third of the text the
    /// HTML shows (markup-stripped length, a cheap estimate that needs no parse).
    static func isRealTwin(plain: String, html: String) -> Bool {
        let plainLength = nonWhitespaceCount(plain)
        guard plainLength > 0 else { return false }
        if plainLength < 400 {
            let lowered = plain.prefix(400).lowercased()
            for stub in htmlOnlyStubs where lowered.contains(stub) {
                return false
            }
        }
        return plainLength * 3 >= visibleLength(ofHTML: html)
    }

    /// Scalars that are not Unicode White_Space; looking the property up for every ASCII scalar cost more
    /// than the rest of the twin test.
    static func nonWhitespaceCount(_ text: String) -> Int {
        var count = 0
        for scalar in text.unicodeScalars where !scalar.isWhitespace { count += 1 }
        return count
    }

    static let htmlOnlyStubs = [
        "view this email in your browser", "view it in your browser", "html-capable", "requires html",
        "does not support html", "html version of this", "enable html", "this is an html message",
    ]

    /// Characters outside tags, scripts, styles and comments, excluding whitespace.
    static func visibleLength(ofHTML html: String) -> Int {
        var count = 0
        var inTag = false
        var skipping: [UInt8]?  // closing tag name we skip to ("script" / "style")
        let bytes = Array(html.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if let closing = skipping {
                if byte == UInt8(ascii: "<"), index + 1 + closing.count < bytes.count,
                    bytes[index + 1] == UInt8(ascii: "/"),
                    bytes[(index + 2)..<min(bytes.count, index + 2 + closing.count)].map({ $0 | 0x20 }) == closing
                {
                    skipping = nil
                }
                index += 1
                continue
            }
            if byte == UInt8(ascii: "<") {
                inTag = true
                for name in ["script", "style"]
                where index + 1 + name.utf8.count <= bytes.count
                    && bytes[(index + 1)..<(index + 1 + name.utf8.count)].map({ $0 | 0x20 }) == Array(name.utf8)
                {
                    skipping = Array(name.utf8)
                }
            } else if byte == UInt8(ascii: ">") {
                inTag = false
            } else if !inTag && byte > 0x20 && (byte & 0xC0) != 0x80 {
                count += 1  // count characters, not UTF-8 continuation bytes
            }
            index += 1
        }
        return count
    }

    /// CRLF and CR become "\n", and so do U+2028 LINE SEPARATOR and U+2029 PARAGRAPH SEPARATOR: the line
    /// scanners split on "\n" only, and a terminal must never receive the separators themselves.
    static func normalizeLineBreaks(_ text: String) -> String {
        var text = text
        if text.utf8.contains(0x0D) {
            text =
                replacingCarriageReturnsByBytes(text)
                ?? text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        }
        guard containsUnicodeLineSeparator(text) else { return text }
        return text.replacingOccurrences(of: "\u{2028}", with: "\n").replacingOccurrences(of: "\u{2029}", with: "\n")
    }

    /// True when the text holds U+2028 or U+2029 (E2 80 A8, E2 80 A9 in UTF-8), found byte by byte.
    private static func containsUnicodeLineSeparator(_ text: String) -> Bool {
        var previous: (UInt8, UInt8) = (0, 0)
        for byte in text.utf8 {
            if (byte == 0xA8 || byte == 0xA9) && previous == (0xE2, 0x80) { return true }
            previous = (previous.1, byte)
        }
        return false
    }

    /// CRLF and CR replaced by "\n" on the UTF-8 bytes, or `nil` when Foundation must decide.
    ///
    /// Foundation's search is not literal: it matches whole composed character sequences, so a break
    /// followed by a combining mark may not be replaced. When every break is followed by ASCII (or ends the
    /// text) no such sequence exists and a byte replacement gives the same string, without Foundation's
    /// round trip through UTF-16.
    static func replacingCarriageReturnsByBytes(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            guard byte == 0x0D else {
                output.append(byte)
                continue
            }
            if index < bytes.count && bytes[index] == 0x0A { index += 1 }
            if index < bytes.count && bytes[index] >= 0x80 { return nil }
            output.append(0x0A)
        }
        return String(decoding: output, as: UTF8.self)
    }

    static func trimmed(_ text: String) -> String {
        WhitespaceTrimming.whitespacesAndNewlines.trimming(text)
    }
}
