import CLibXML2

#if canImport(Glibc)
import Glibc
#endif

/// One parsed libxml2 HTML document, owned for the length of one call.
///
/// The document is a reference type because it owns a C resource: it is freed in `deinit`. It is never stored
/// or shared between tasks (libxml2 documents are not safe to share across threads), which is why the public
/// types built on it (`HTMLSanitizer`, `HTMLToText`) can be `Sendable` values with no shared mutable state.
final class HTMLDocument {
    /// The libxml2 document; valid until `self` is released.
    let pointer: htmlDocPtr

    /// Parses `html` (already decoded to a Swift string, so UTF-8) leniently; `nil` for an empty input.
    ///
    /// `XML_PARSE_HUGE` is mandatory: without it content nested deeper than 256 levels is silently dropped,
    /// and long reply chains nest that deep. `HTML_PARSE_IGNORE_ENC` stops a `<meta charset=…>` inside the
    /// document from re-decoding text that is already UTF-8.
    init?(parsing html: String) {
        _ = LibXML2Setup.initialized
        let options = Int32(
            HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_NONET.rawValue
                | HTML_PARSE_RECOVER.rawValue | HTML_PARSE_IGNORE_ENC.rawValue | XML_PARSE_HUGE.rawValue
        )
        var bytes = Array(html.utf8)
        guard !bytes.isEmpty, bytes.count < Int(Int32.max) else { return nil }
        let parsed: htmlDocPtr? = bytes.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                guard let context = ParserContextCache.current() else {
                    return htmlReadMemory(chars.baseAddress, Int32(chars.count), nil, "UTF-8", options)
                }
                return htmlCtxtReadMemory(context, chars.baseAddress, Int32(chars.count), nil, "UTF-8", options)
            }
        }
        guard let parsed else { return nil }
        self.pointer = parsed
    }

    deinit {
        xmlFreeDoc(self.pointer)
    }

    /// The root `<html>` element, when the parser produced one.
    var root: xmlNodePtr? { xmlDocGetRootElement(self.pointer) }

    /// The `<body>` element, or the root element for documents without one (for example a lone `<frameset>`).
    var body: xmlNodePtr? {
        guard let root = self.root else { return nil }
        var child = root.pointee.children
        while let node = child {
            if node.elementName == "body" { return node }
            child = node.pointee.next
        }
        return root
    }

    /// Serializes the children of `node` (not `node` itself) as UTF-8 HTML.
    ///
    /// Uses `xmlSaveToBuffer` with "UTF-8": `htmlDocDumpMemoryFormat` would write ASCII with numeric entities,
    /// which doubles the size of non-Latin mail and makes the output unreadable in logs and tests.
    func serializeChildren(of node: xmlNodePtr) -> String {
        guard let buffer = xmlBufferCreate() else { return "" }
        defer { xmlBufferFree(buffer) }
        let options = Int32(XML_SAVE_AS_HTML.rawValue | XML_SAVE_NO_DECL.rawValue)
        guard let context = xmlSaveToBuffer(buffer, "UTF-8", options) else { return "" }
        var child = node.pointee.children
        while let current = child {
            if current.pointee.type != XML_ELEMENT_NODE || current.elementName != "head" {
                xmlSaveTree(context, current)
            }
            child = current.pointee.next
        }
        xmlSaveClose(context)
        guard let content = xmlBufferContent(buffer) else { return "" }
        let length = Int(xmlBufferLength(buffer))
        return String(decoding: UnsafeBufferPointer(start: content, count: length), as: UTF8.self)
    }
}

/// Runs `xmlInitParser()` exactly once per process, before the first parse.
///
/// libxml2 wants its global tables initialised before documents are parsed from several threads at once.
/// `xmlCleanupParser()` is deliberately never called: another task may still be parsing.
enum LibXML2Setup {
    static let initialized: Void = xmlInitParser()
}

extension UnsafeMutablePointer where Pointee == xmlNode {
    /// The lowercased tag name of an element node; `nil` for text, comments and every other node kind.
    ///
    /// libxml2 splits `<o:p>` into the name `p` and an undeclared namespace prefix `o`, and would then write
    /// it back as `<p>`; the prefix is kept in the name so `o:p` stays an unknown element (unwrapped), not a
    /// paragraph.
    var elementName: String? {
        guard self.pointee.type == XML_ELEMENT_NODE, let name = self.pointee.name else { return nil }
        let local = String(cString: name).lowercased()
        guard let namespace = self.pointee.ns, let prefix = namespace.pointee.prefix else { return local }
        return String(cString: prefix).lowercased() + ":" + local
    }

    /// The decoded value of the attribute called `name` (lowercase), entities already resolved by libxml2.
    func attribute(_ name: String) -> String? {
        var property = self.pointee.properties
        while let attribute = property {
            if let attributeName = attribute.pointee.name, String(cString: attributeName).lowercased() == name {
                return attribute.value
            }
            property = attribute.pointee.next
        }
        return nil
    }

    /// Whether this is a `p` inside another `p`.
    ///
    /// The HTML parser closes an open `p` when a new one starts, so a nested `p` can only be Outlook's `<o:p>`,
    /// whose prefix libxml2 drops. It is an unknown inline element, not a paragraph.
    var isNestedParagraph: Bool {
        guard self.elementName == "p" else { return false }
        var ancestor = self.pointee.parent
        while let node = ancestor, node.pointee.type == XML_ELEMENT_NODE {
            if node.elementName == "p" { return true }
            ancestor = node.pointee.parent
        }
        return false
    }

    /// Whether the element carries the attribute called `name` (lowercase), with or without a value.
    func hasAttribute(_ name: String) -> Bool {
        var property = self.pointee.properties
        while let attribute = property {
            if let attributeName = attribute.pointee.name, String(cString: attributeName).lowercased() == name {
                return true
            }
            property = attribute.pointee.next
        }
        return false
    }

    /// Sets (or replaces) an attribute on an element.
    func setAttribute(_ name: String, to value: String) {
        name.withCString { namePointer in
            value.withCString { valuePointer in
                namePointer.withMemoryRebound(to: xmlChar.self, capacity: name.utf8.count + 1) { xmlName in
                    valuePointer.withMemoryRebound(to: xmlChar.self, capacity: value.utf8.count + 1) { xmlValue in
                        _ = xmlSetProp(self, xmlName, xmlValue)
                    }
                }
            }
        }
    }

    /// The whitespace-separated, lowercased tokens of the `class` attribute.
    var classTokens: [Substring] {
        guard let value = self.attribute("class") else { return [] }
        return value.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
    }

    /// The text of a text or CDATA node.
    var textContent: String {
        guard let content = self.pointee.content else { return "" }
        return String(cString: content)
    }

    /// The next node in document order after this node's subtree, staying inside `container`.
    func following(within container: xmlNodePtr) -> xmlNodePtr? {
        var current = self
        while true {
            if let sibling = current.pointee.next { return sibling }
            guard let parent = current.pointee.parent, parent != container else { return nil }
            current = parent
        }
    }

    /// Detaches the node from the tree and frees it with its whole subtree.
    func removeFromTree() {
        xmlUnlinkNode(self)
        xmlFreeNode(self)
    }

    /// The next sibling that is an element, skipping text and comments.
    var nextElementSibling: xmlNodePtr? {
        var sibling = self.pointee.next
        while let node = sibling {
            if node.pointee.type == XML_ELEMENT_NODE { return node }
            sibling = node.pointee.next
        }
        return nil
    }

    /// The previous sibling that is an element, skipping text and comments.
    var previousElementSibling: xmlNodePtr? {
        var sibling = self.pointee.prev
        while let node = sibling {
            if node.pointee.type == XML_ELEMENT_NODE { return node }
            sibling = node.pointee.prev
        }
        return nil
    }
}

extension UnsafeMutablePointer where Pointee == xmlAttr {
    /// The attribute's decoded value ("" for a bare attribute such as `hidden`).
    var value: String {
        guard let content = xmlNodeGetContent(UnsafeMutableRawPointer(self).assumingMemoryBound(to: xmlNode.self))
        else { return "" }
        defer { chatmail_xmlFree(content) }
        return String(cString: content)
    }

    /// The attribute's lowercased name, with its namespace prefix (`xlink:href`) when libxml2 split one off.
    var lowercasedName: String {
        guard let name = self.pointee.name else { return "" }
        let local = String(cString: name).lowercased()
        guard let namespace = self.pointee.ns, let prefix = namespace.pointee.prefix else { return local }
        return String(cString: prefix).lowercased() + ":" + local
    }
}

/// Reusable libxml2 HTML parser contexts, one per thread and purpose.
///
/// Mail HTML bodies are small (1.7 KB on average in the corpus), so creating a parser context, its name
/// dictionary and its buffers for every document cost as much as parsing it. A context is only ever used
/// by the thread that owns it, one document at a time, and `htmlCtxtReadMemory` resets it before each
/// parse; documents it produced keep their own reference to its dictionary, so they outlive nothing.
/// The sanitizer's context has its own callbacks (`SanitizingParser`) instead of the tree builder's.
enum ParserContextCache {
    enum Purpose {
        /// Builds a document tree (`HTMLDocument`).
        case tree
        /// Streams to the sanitizer.
        case sanitizing
    }

    private static let treeKey = makeKey()
    private static let sanitizingKey = makeKey()

    private static func makeKey() -> pthread_key_t? {
        var key = pthread_key_t()
        let created = pthread_key_create(&key) { pointer in
            if let pointer { htmlFreeParserCtxt(pointer.assumingMemoryBound(to: htmlParserCtxt.self)) }
        }
        return created == 0 ? key : nil
    }

    /// This thread's context for `purpose`, created on first use; `nil` if libxml2 or pthreads refuse
    /// (tree callers then parse with a one-off context).
    static func current(_ purpose: Purpose = .tree) -> htmlParserCtxtPtr? {
        guard let key = purpose == .tree ? self.treeKey : self.sanitizingKey else { return nil }
        if let existing = pthread_getspecific(key) {
            return existing.assumingMemoryBound(to: htmlParserCtxt.self)
        }
        guard let context = htmlNewParserCtxt() else { return nil }
        if purpose == .sanitizing { SanitizingParser.configure(context) }
        guard pthread_setspecific(key, context) == 0 else {
            htmlFreeParserCtxt(context)
            return nil
        }
        return context
    }
}
