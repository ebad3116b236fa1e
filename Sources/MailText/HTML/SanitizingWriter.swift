import CLibXML2

#if canImport(Glibc)
import Glibc
#endif

/// The streaming half of the sanitizer: libxml2's HTML parser reports each start tag, end tag and run of text,
/// and this writes the sanitized HTML straight into one byte buffer.
///
/// No tree is built, changed or serialized: an element is kept (written with its filtered attributes),
/// unwrapped (its tags skipped, its content written) or removed (everything up to its end skipped). The parser
/// has already repaired the markup (implied and auto-closed elements), so the events it reports are balanced.
///
/// Bare text at the very start of the body is wrapped in a `div` up to the first block element, and whitespace
/// at the edges of the body is dropped: parsing the output again must give the same output, and libxml2 would
/// otherwise invent a `<p>` around leading text and drop leading whitespace.
struct SanitizingWriter {
    /// What an open element wrote, so its end can be written to match.
    private struct Frame {
        enum Kind: UInt8 {
            /// Unwrapped; a box of its own when rendered (a button, a text area), so its text is followed by a
            /// space rather than run into the next word.
            case unwrapped, unwrappedBox, element, renamed, void
            /// Unwrapped to keep the output stable (see `wouldBeClosedOnReparse`), its lines kept with `br`s.
            case unwrappedBlock
        }

        var isWritten: Bool { self.kind == .element || self.kind == .renamed || self.kind == .void }

        var kind: Kind
        var isParagraph: Bool
        /// The tag name libxml2 reported (interned in its dictionary, alive for the whole parse).
        var name: UnsafePointer<UInt8>?
    }

    /// Where the body's leading inline content stands.
    private enum Leading {
        /// Nothing written at the top level yet.
        case start
        /// Inside the `div` that wraps leading bare text.
        case wrapping
        /// Past the leading content.
        case done
    }

    /// The sanitized HTML, UTF-8. Written here and by the attribute filter (`SanitizingWriter+Attributes`).
    var output: [UInt8] = []
    let blockRemoteImages: Bool
    private var frames: [Frame] = []
    /// Depth inside a removed element (0: not inside one).
    private var skippedDepth = 0
    /// Elements open in the output.
    private var writtenDepth = 0
    private var openParagraphs = 0
    private var leading = Leading.start
    /// Whitespace at the top level, written only if more content follows.
    private var pendingWhitespace: [UInt8] = []
    /// Reused buffers of the attribute filter.
    var scratch: [UInt8] = []
    var compactScratch: [UInt8] = []

    init(blockRemoteImages: Bool, expectedSize: Int) {
        self.blockRemoteImages = blockRemoteImages
        self.output.reserveCapacity(expectedSize + expectedSize / 8)
    }

    // MARK: Parser events

    mutating func startElement(_ name: UnsafePointer<UInt8>, attributes: AttributeList) {
        if self.skippedDepth > 0 {
            self.skippedDepth += 1
            return
        }
        let nameBytes = UnsafeBufferPointer(start: name, count: Self.length(of: name))
        var rule = SanitizerRules.elements.value(for: nameBytes) ?? .unknown
        // A p inside an open p can only come from markup the parser could not close (Outlook's <o:p> in some
        // libxml2 versions), and a renamed block inside a p would make the parser close the p on a second pass.
        if self.openParagraphs > 0 && (rule.role == .paragraph || rule.isRenamed) { rule = .unknown }
        switch rule.action {
        case .remove:
            self.skippedDepth = 1
            return
        case .unwrap:
            self.frames.append(Frame(kind: rule.isBox ? .unwrappedBox : .unwrapped, isParagraph: false, name: nil))
            return
        case .keep:
            break
        }
        if rule.role == .image && TrackerList.isTrackingPixel(attribute: { attributes.value(of: $0) }) {
            self.skippedDepth = 1
            return
        }
        if self.wouldBeClosedOnReparse(by: name, rule) {
            // Written here, the element would make the parser close its written parent on a second pass (the
            // element that kept them apart was unwrapped), so it is unwrapped too; a block keeps its lines.
            let kind: Frame.Kind = rule.isBlock ? .unwrappedBlock : .unwrapped
            if rule.isBlock { self.append("<br>") }
            self.frames.append(Frame(kind: kind, isParagraph: false, name: nil))
            return
        }
        if self.writtenDepth == 0 { self.beforeTopLevelElement(isBlock: rule.isBlock) }
        self.output.append(UInt8(ascii: "<"))
        if rule.isRenamed {
            self.append("div")
        } else {
            self.output.append(contentsOf: nameBytes)
        }
        self.writeAttributes(attributes, of: rule)
        self.output.append(UInt8(ascii: ">"))
        let kind: Frame.Kind = rule.isVoid ? .void : rule.isRenamed ? .renamed : .element
        self.frames.append(Frame(kind: kind, isParagraph: rule.role == .paragraph, name: name))
        self.writtenDepth += 1
        if rule.role == .paragraph { self.openParagraphs += 1 }
    }

    mutating func endElement() {
        if self.skippedDepth > 0 {
            self.skippedDepth -= 1
            return
        }
        guard let frame = self.frames.popLast() else { return }
        self.close(frame)
    }

    mutating func characters(_ text: UnsafeBufferPointer<UInt8>) {
        guard self.skippedDepth == 0, !text.isEmpty else { return }
        guard self.writtenDepth == 0 else {
            self.writeEscapedText(text)
            return
        }
        let firstVisible = text.firstIndex(where: { !Self.isSpace($0) })
        guard let firstVisible else {
            if self.leading != .start { self.pendingWhitespace.append(contentsOf: text) }
            return
        }
        switch self.leading {
        case .start:
            self.append("<div>")
            self.leading = .wrapping
            self.writeEscapedText(UnsafeBufferPointer(rebasing: text[firstVisible...]))
            return
        case .wrapping, .done:
            self.flushPendingWhitespace()
        }
        self.writeEscapedText(text)
    }

    /// Closes whatever the parser left open (it normally closes everything) and the leading wrapper.
    mutating func finish() {
        while let frame = self.frames.popLast() { self.close(frame) }
        if self.leading == .wrapping { self.append("</div>") }
        self.leading = .done
    }

    // MARK: Writing

    private mutating func close(_ frame: Frame) {
        switch frame.kind {
        case .unwrapped:
            return
        case .unwrappedBox:
            let space: StaticString = " "
            self.characters(UnsafeBufferPointer(start: space.utf8Start, count: 1))
            return
        case .unwrappedBlock:
            self.append("<br>")
            return
        case .void:
            break
        case .renamed:
            self.append("</div>")
        case .element:
            self.append("</")
            if let name = frame.name {
                self.output.append(contentsOf: UnsafeBufferPointer(start: name, count: Self.length(of: name)))
            }
            self.output.append(UInt8(ascii: ">"))
        }
        self.writtenDepth -= 1
        if frame.isParagraph { self.openParagraphs -= 1 }
    }

    /// Whether writing the element `name` here would make libxml2, parsing the output again, close the innermost
    /// element written so far (`<b>` is closed by `<p>`, `<li>` by `<li>`, …), which would change the output.
    ///
    /// On the first pass the parser already closed such an element unless another one stood between them; so
    /// the question only arises when that one was unwrapped, or when a name changed by renaming.
    private func wouldBeClosedOnReparse(by name: UnsafePointer<UInt8>, _ rule: SanitizerRules.Element) -> Bool {
        guard let innermost = self.frames.lastIndex(where: \.isWritten) else { return false }
        let parent = self.frames[innermost]
        guard innermost != self.frames.count - 1 || rule.isRenamed || parent.kind == .renamed else { return false }
        let written = rule.isRenamed ? SanitizerRules.divName : name
        let parentName = parent.kind == .renamed ? SanitizerRules.divName : parent.name
        guard let parentName else { return false }
        if Self.length(of: written) == Self.length(of: parentName)
            && memcmp(written, parentName, Self.length(of: written)) == 0
        {
            return rule.closesItself
        }
        var element = xmlNode()
        element.type = XML_ELEMENT_NODE
        element.name = written
        return htmlAutoCloseTag(nil, parentName, &element) == 1
    }

    private mutating func beforeTopLevelElement(isBlock: Bool) {
        switch self.leading {
        case .start:
            self.leading = .done
        case .wrapping:
            if isBlock {
                self.pendingWhitespace.removeAll(keepingCapacity: true)
                self.append("</div>")
                self.leading = .done
            } else {
                self.flushPendingWhitespace()
            }
        case .done:
            self.flushPendingWhitespace()
        }
    }

    private mutating func flushPendingWhitespace() {
        guard !self.pendingWhitespace.isEmpty else { return }
        self.output.append(contentsOf: self.pendingWhitespace)
        self.pendingWhitespace.removeAll(keepingCapacity: true)
    }

    /// Writes text with `&`, `<` and `>` escaped, and `"` too inside an attribute value, copying the runs
    /// between them in one piece.
    mutating func writeEscapedText(_ text: UnsafeBufferPointer<UInt8>, inAttribute: Bool = false) {
        var runStart = 0
        for index in 0..<text.count {
            let entity: StaticString
            switch text[index] {
            case UInt8(ascii: "&"): entity = "&amp;"
            case UInt8(ascii: "<"): entity = "&lt;"
            case UInt8(ascii: ">"): entity = "&gt;"
            case UInt8(ascii: "\"") where inAttribute: entity = "&quot;"
            default: continue
            }
            if index > runStart {
                self.output.append(contentsOf: UnsafeBufferPointer(rebasing: text[runStart..<index]))
            }
            self.append(entity)
            runStart = index + 1
        }
        if runStart < text.count { self.output.append(contentsOf: UnsafeBufferPointer(rebasing: text[runStart...])) }
    }

    mutating func append(_ text: StaticString) {
        self.output.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D || byte == 0x0C
    }

    static func length(of name: UnsafePointer<UInt8>) -> Int {
        var length = 0
        while name[length] != 0 { length += 1 }
        return length
    }
}
