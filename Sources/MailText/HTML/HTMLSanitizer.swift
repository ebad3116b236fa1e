import CLibXML2

/// An allow-list HTML sanitizer for mail bodies, built on the libxml2 DOM.
///
/// It exists so a message can be shown as HTML without running the sender's code, leaking that it was opened,
/// or mangling its text. Elements are kept, renamed to `div`, unwrapped or removed by tag name (see `AllowList`);
/// attributes are filtered one by one, URLs by scheme (`URLPolicy`), inline CSS by property and value
/// (`CSSFilter`), and tracking pixels are removed (`TrackerList`). Comments (including Outlook's conditional
/// comments) and processing instructions are removed. Text is never touched: all work is on elements and
/// attributes, never regular expressions over the document (lesson 9 of lessons-from-the-ios-app.md).
///
/// The output is the content of `<body>` as UTF-8 HTML; sanitizing it again gives the same string.
///
/// ```swift
/// let safe = HTMLSanitizer().sanitize(#"<p onclick="x()">Hi <img src="https://t.example/p.gif"></p>"#)
/// // <p>Hi <img data-blocked-src="https://t.example/p.gif"></p>
/// ```
public struct HTMLSanitizer: Sendable {
    /// Choices a caller may make about what is allowed.
    public struct Options: Sendable {
        /// Moves `http:`/`https:` image sources to `data-blocked-src`, so that showing the mail fetches nothing.
        /// `cid:` images (parts of the same message) always keep their `src`.
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

    /// Returns the sanitized content of the document's `<body>` as UTF-8 HTML ("" when nothing survives).
    ///
    /// Parsing is lenient (libxml2's recovering HTML parser), so any input gives some output; the document lives
    /// only for the length of this call.
    public func sanitize(_ html: String) -> String {
        guard let document = HTMLDocument(parsing: html), let body = document.body else { return "" }
        self.clean(childrenOf: body)
        Self.wrapLeadingInlineContent(of: body)
        return document.serializeChildren(of: body)
    }

    /// Walks the subtree under `container` iteratively (mail nests deeper than a thread's stack likes).
    private func clean(childrenOf container: xmlNodePtr) {
        var next = container.pointee.children
        while let node = next {
            let type = node.pointee.type
            if type == XML_TEXT_NODE {
                next = Self.following(node, within: container)
                continue
            }
            guard type == XML_ELEMENT_NODE, let name = node.elementName else {
                // comments (conditional comments too), processing instructions, CDATA, DTD fragments
                next = Self.following(node, within: container)
                node.removeFromTree()
                continue
            }
            let disposition = node.isNestedParagraph ? .unwrap : AllowList.disposition(of: name)
            switch disposition {
            case .remove:
                next = Self.following(node, within: container)
                node.removeFromTree()
                continue
            case .unwrap:
                next = Self.unwrap(node, within: container)
                continue
            case .rename(let newName):
                xmlNodeSetName(node, newName)
                self.filterAttributes(of: node, named: newName)
            case .keep:
                if name == "img" && TrackerList.isTrackingPixel(node) {
                    next = Self.following(node, within: container)
                    node.removeFromTree()
                    continue
                }
                self.filterAttributes(of: node, named: name)
            }
            next = node.pointee.children ?? Self.following(node, within: container)
        }
    }

    /// Block elements that end a leading run of inline content.
    static let blockElements: Set<String> = [
        "div", "p", "table", "blockquote", "ul", "ol", "dl", "pre", "hr", "h1", "h2", "h3", "h4", "h5", "h6",
        "center", "figure", "details",
    ]

    /// Wraps text and inline elements at the very start of the body in a `div`.
    ///
    /// Parsing bare leading text again makes libxml2 invent a `<p>` around it, so without this wrapper
    /// `sanitize(sanitize(x))` would differ from `sanitize(x)`. A `div` around leading inline content renders
    /// the same.
    private static func wrapLeadingInlineContent(of body: xmlNodePtr) {
        // Whitespace at the edges of the body never renders, and the parser drops it on the second pass.
        while let edge = body.pointee.children, Self.isWhitespaceText(edge) { edge.removeFromTree() }
        while let edge = body.pointee.last, Self.isWhitespaceText(edge) { edge.removeFromTree() }
        guard let first = body.pointee.children, first.pointee.type == XML_TEXT_NODE,
            first.textContent.contains(where: { !$0.isWhitespace })
        else { return }
        guard let wrapper = xmlNewDocNode(body.pointee.doc, nil, "div", nil) else { return }
        xmlAddPrevSibling(first, wrapper)
        var next: xmlNodePtr? = first
        while let node = next, !(node.elementName.map { self.blockElements.contains($0) } ?? false) {
            next = node.pointee.next
            xmlUnlinkNode(node)
            xmlAddChild(wrapper, node)
        }
    }

    private static func isWhitespaceText(_ node: xmlNodePtr) -> Bool {
        node.pointee.type == XML_TEXT_NODE && node.textContent.allSatisfy(\.isWhitespace)
    }

    /// Filters the attributes of a kept element in place.
    private func filterAttributes(of element: xmlNodePtr, named name: String) {
        var opensExternally = false
        var blockedSource: String? = nil
        var property = element.pointee.properties
        while let attribute = property {
            property = attribute.pointee.next
            let attributeName = attribute.lowercasedName
            guard attribute.pointee.ns == nil, AllowList.allowsAttribute(attributeName, on: name) else {
                xmlRemoveProp(attribute)
                continue
            }
            let value = attribute.value
            let replacement: String?
            switch attributeName {
            case "style":
                replacement = CSSFilter.sanitize(value)
            case "href", "cite":
                switch URLPolicy.link(value) {
                case .keep(let url, let external):
                    replacement = url
                    if attributeName == "href" { opensExternally = external }
                case .drop:
                    replacement = nil
                }
            case "src":
                switch URLPolicy.image(value) {
                case .inline(let url):
                    replacement = url
                case .remote(let url):
                    if self.options.blockRemoteImages {
                        blockedSource = url
                        replacement = nil
                    } else {
                        replacement = url
                    }
                case .drop:
                    replacement = nil
                }
            case "data-blocked-src":
                switch URLPolicy.image(value) {
                case .remote(let url): replacement = url
                case .inline, .drop: replacement = nil
                }
            case "target":
                replacement = nil  // set again below, only for links that leave the message
            default:
                replacement = value  // allow-listed plain attribute (a switch over strings, not our enum)
            }
            if let replacement {
                if replacement != value { element.setAttribute(attributeName, to: replacement) }
            } else {
                xmlRemoveProp(attribute)
            }
        }
        if name == "a" && opensExternally {
            element.setAttribute("target", to: "_blank")
            element.setAttribute("rel", to: "noopener noreferrer")
        }
        if let blockedSource {
            element.setAttribute("data-blocked-src", to: blockedSource)
        }
    }

    /// Replaces `element` by its children and returns the node the walk continues with (the first moved child).
    private static func unwrap(_ element: xmlNodePtr, within container: xmlNodePtr) -> xmlNodePtr? {
        var firstMoved: xmlNodePtr? = nil
        while let child = element.pointee.children {
            xmlUnlinkNode(child)
            // xmlAddPrevSibling may merge a text child into a preceding text node and return that node instead;
            // revisiting a text node is harmless.
            guard let placed = xmlAddPrevSibling(element, child) else {
                xmlFreeNode(child)
                continue
            }
            if firstMoved == nil { firstMoved = placed }
        }
        let after = Self.following(element, within: container)
        element.removeFromTree()
        return firstMoved ?? after
    }

    /// The next node in document order after `node`'s subtree, staying inside `container`.
    static func following(_ node: xmlNodePtr, within container: xmlNodePtr) -> xmlNodePtr? {
        var current = node
        while true {
            if let sibling = current.pointee.next { return sibling }
            guard let parent = current.pointee.parent, parent != container else { return nil }
            current = parent
        }
    }
}
