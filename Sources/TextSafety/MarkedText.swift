/// Text with the parts that matched a search marked: what the store's search returns and what the
/// renderers draw, one type for both.
///
/// It lives here, below the store and the renderers, because neither may depend on the other, and
/// because its delimiters rest on this module's policy: ``UnsafeScalars`` removes every C0 control from
/// mail text, so the two it uses to mark matches can never come from the mail itself.
public struct MarkedText: Sendable, Equatable {
    /// A run of text, matched or not.
    public struct Segment: Sendable, Equatable {
        public var text: String
        public var isMatch: Bool

        public init(text: String, isMatch: Bool) {
            self.text = text
            self.isMatch = isMatch
        }
    }

    public var segments: [Segment]

    public init(segments: [Segment]) {
        self.segments = segments
    }

    /// The text without marks.
    public var plain: String { segments.map(\.text).joined() }

    /// The characters that open and close a match in ``init(marked:)``: STX and ETX, which SQLite's FTS5
    /// is asked to put around matches.
    public static let open: Character = "\u{2}", close: Character = "\u{3}"

    /// Splits text in which ``open`` and ``close`` surround the matches. Any other STX or ETX (none
    /// survives the text pipeline) would only split a segment.
    public init(marked: String) {
        var segments: [Segment] = []
        var current = ""
        var inMatch = false
        for character in marked {
            if character == Self.open || character == Self.close {
                if !current.isEmpty { segments.append(Segment(text: current, isMatch: inMatch)) }
                current = ""
                inMatch = character == Self.open
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { segments.append(Segment(text: current, isMatch: inMatch)) }
        self.segments = segments
    }
}
