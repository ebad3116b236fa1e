import CLibXML2

/// An allow-list HTML sanitizer for mail bodies, built on libxml2's HTML parser.
///
/// It exists so a message can be shown as HTML without running the sender's code, leaking that it was opened,
/// or mangling its text. Elements are kept, renamed to `div`, unwrapped or removed by tag name (see `AllowList`);
/// attributes are filtered one by one, URLs by scheme (`URLPolicy`), inline CSS by property and value
/// (`CSSFilter`), and tracking pixels are removed (`TrackerList`). An attribute whose value holds `<` or a
/// comment's end is dropped, so nothing in the output can turn into markup when it is parsed again. A blocked
/// remote image keeps only the name of its host, never its URL. Comments (including Outlook's conditional
/// comments) and processing instructions are removed. Text is never touched: all work is on elements and
/// attributes as the parser reports them, never regular expressions over the document, which match text that
/// only looks like markup.
///
/// The parser reports tags and text as it reads them (SAX) and `SanitizingWriter` writes the output at once:
/// building, editing and serializing a tree cost more than parsing itself. The output is the content of the
/// body as UTF-8 HTML; sanitizing it again gives the same string.
///
/// ```swift
/// let safe = HTMLSanitizer().sanitize(#"<p onclick="x()">Hi <img src="https://t.example/p.gif"></p>"#)
/// // <p>Hi <img data-blocked-host="t.example"></p>
/// ```
public struct HTMLSanitizer: Sendable {
    /// Choices a caller may make about what is allowed.
    public struct Options: Sendable {
        /// Drops the `src` of `http:`/`https:` images, so that showing the mail fetches nothing; the image keeps
        /// only its host, in `data-blocked-host`, for an "images blocked" notice. `cid:` images (parts of the
        /// same message) always keep their `src`.
        public var blockRemoteImages: Bool = true

        /// Creates options; by default remote images are blocked.
        public init(blockRemoteImages: Bool = true) {
            self.blockRemoteImages = blockRemoteImages
        }
    }

    /// The options this sanitizer applies.
    public var options: Options

    /// Creates a sanitizer with the given options.
    public init(options: Options = .init()) {
        self.options = options
    }

    /// Returns the sanitized content of the document's body as UTF-8 HTML ("" when nothing survives).
    ///
    /// Parsing is lenient (libxml2's recovering HTML parser), so any input gives some output.
    public func sanitize(_ html: String) -> String {
        var html = html
        return html.withUTF8 { bytes in
            guard !bytes.isEmpty, bytes.count < Int(Int32.max) else { return "" }
            var writer = SanitizingWriter(blockRemoteImages: self.options.blockRemoteImages, expectedSize: bytes.count)
            withUnsafeMutablePointer(to: &writer) { SanitizingParser.parse(bytes, into: $0) }
            writer.finish()
            return String(decoding: writer.output, as: UTF8.self)
        }
    }
}

/// Runs libxml2's HTML parser with the sanitizer's callbacks on a per-thread parser context.
enum SanitizingParser {
    /// The parser options of every parse; see `HTMLDocument` for why each is needed.
    static let options = Int32(
        HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_NONET.rawValue
            | HTML_PARSE_RECOVER.rawValue | HTML_PARSE_IGNORE_ENC.rawValue | XML_PARSE_HUGE.rawValue
    )

    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, into writer: UnsafeMutablePointer<SanitizingWriter>) {
        _ = LibXML2Setup.initialized
        let cached = ParserContextCache.current(.sanitizing)
        var oneOff: htmlParserCtxtPtr? = nil
        defer { if let oneOff { htmlFreeParserCtxt(oneOff) } }
        if cached == nil, let context = htmlNewParserCtxt() {
            // No per-thread context (pthreads refused one): a context for this call alone loses nothing.
            self.configure(context)
            oneOff = context
        }
        guard let context = cached ?? oneOff else { return }
        context.pointee.userData = UnsafeMutableRawPointer(writer)
        defer { context.pointee.userData = UnsafeMutableRawPointer(context) }
        bytes.withMemoryRebound(to: CChar.self) { chars in
            // No start-of-document callback is set, so no tree is built; free one defensively all the same.
            if let document = htmlCtxtReadMemory(
                context, chars.baseAddress, Int32(chars.count), nil, "UTF-8", self.options)
            {
                xmlFreeDoc(document)
            }
        }
    }

    /// Replaces the tree-building callbacks of a fresh context by the sanitizer's; everything else is off.
    static func configure(_ context: htmlParserCtxtPtr) {
        guard let handler = context.pointee.sax else { return }
        handler.pointee = htmlSAXHandler()
        handler.pointee.startElement = { userData, name, attributes in
            guard let userData, let name else { return }
            userData.assumingMemoryBound(to: SanitizingWriter.self).pointee
                .startElement(name, attributes: AttributeList(pointer: attributes))
        }
        handler.pointee.endElement = { userData, _ in
            userData?.assumingMemoryBound(to: SanitizingWriter.self).pointee.endElement()
        }
        let characters: charactersSAXFunc = { userData, text, length in
            guard let userData, let text, length > 0 else { return }
            userData.assumingMemoryBound(to: SanitizingWriter.self).pointee
                .characters(UnsafeBufferPointer(start: text, count: Int(length)))
        }
        handler.pointee.characters = characters
        handler.pointee.ignorableWhitespace = characters
        // Script and style content arrives as CDATA; both are removed, so it is dropped here.
        handler.pointee.cdataBlock = { _, _, _ in }
    }
}
