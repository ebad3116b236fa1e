/// What the sanitizer does with one element, decided by its tag name alone.
enum ElementDisposition: Equatable {
    /// Kept, with its attributes filtered.
    case keep
    /// Kept under another tag name (semantic blocks become `div` so layout survives without widening the list).
    case rename(String)
    /// Replaced by its children: the tag is unknown but its text is mail content.
    case unwrap
    /// Removed together with everything inside it: active content, forms, metadata, embedded documents.
    case remove
}

/// The sanitizer's allow-lists, kept as data so they can be reviewed and tested on their own.
///
/// This is an allow-list, not a deny-list (lesson 9 of lessons-from-the-ios-app.md): anything not named here is
/// either unwrapped (elements) or dropped (attributes).
enum AllowList {
    /// Elements kept as they are.
    static let elements: Set<String> = [
        "a", "abbr", "b", "blockquote", "br", "caption", "center", "cite", "code", "col", "colgroup", "dd", "del",
        "details", "dfn", "div", "dl", "dt", "em", "figcaption", "figure", "font", "h1", "h2", "h3", "h4", "h5",
        "h6", "hr", "i", "img", "ins", "kbd", "li", "mark", "ol", "p", "pre", "q", "s", "samp", "small", "span",
        "strike", "strong", "sub", "summary", "sup", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "tt",
        "u", "ul", "var", "wbr",
    ]

    /// Elements removed together with their content.
    static let removedWithContent: Set<String> = [
        // active content and embedded documents
        "script", "style", "iframe", "frame", "frameset", "object", "embed", "applet", "noscript", "template",
        "noembed", "noframes", "audio", "video", "canvas", "portal",
        // forms: phishing surface, and their text is never the message
        "form", "input", "button", "select", "option", "optgroup", "textarea", "datalist", "output",
        // document metadata
        "head", "meta", "base", "link", "title",
        // foreign content: its own parsing rules and scriptable attributes
        "svg", "math",
    ]

    /// Void elements that are removed, but whose misparsed "children" are kept.
    ///
    /// libxml2 2.9 does not know some of these as void, so `<embed src=x><p>after</p>` puts the paragraph
    /// inside the embed; removing the embed with its content would lose mail text.
    static let removedVoidElements: Set<String> = ["embed", "param", "source", "track", "keygen", "bgsound"]

    /// Semantic block elements kept as `div`, so the sanitized HTML still breaks lines where the sender meant.
    static let renamedToDiv: Set<String> = [
        "section", "article", "header", "footer", "main", "nav", "aside", "address", "hgroup",
    ]

    /// Attributes allowed on every kept element.
    ///
    /// `class` is kept: without any stylesheet (every `<style>` is removed) it cannot change rendering, and it
    /// keeps quote markers such as `gmail_quote` visible to later passes. `id` is dropped: ids become globals in
    /// a browser (DOM clobbering) and can collide with the viewer's own page.
    static let globalAttributes: Set<String> = [
        "title", "dir", "lang", "style", "class", "align", "valign", "width", "height", "bgcolor", "color",
    ]

    /// Attributes allowed on specific elements, on top of `globalAttributes`.
    static let elementAttributes: [String: Set<String>] = [
        "a": ["href", "name", "target"],
        // data-blocked-src is our own marker for a blocked remote image; keeping it makes sanitizing idempotent.
        "img": ["src", "alt", "width", "height", "data-blocked-src"],
        "td": ["colspan", "rowspan", "nowrap"],
        "th": ["colspan", "rowspan", "nowrap", "scope"],
        "ol": ["start", "type"],
        "font": ["face", "size", "color"],
        "blockquote": ["cite", "type"],
        // table layout attributes: harmless, and newsletters fall apart without them
        "table": ["border", "cellpadding", "cellspacing"],
        "col": ["span"],
        "colgroup": ["span"],
        "details": ["open"],
    ]

    /// What to do with an element called `name` (lowercase).
    static func disposition(of name: String) -> ElementDisposition {
        if self.elements.contains(name) { return .keep }
        if self.removedVoidElements.contains(name) { return .unwrap }  // the element goes, its attributes with it
        if self.removedWithContent.contains(name) { return .remove }
        if self.renamedToDiv.contains(name) { return .rename("div") }
        return .unwrap
    }

    /// Whether the attribute `attribute` (lowercase) may stay on the element `element` (lowercase).
    ///
    /// Event handlers (`on…`, any case) are refused before the lists are consulted, so no list can let one in.
    static func allowsAttribute(_ attribute: String, on element: String) -> Bool {
        if attribute.hasPrefix("on") { return false }
        if self.globalAttributes.contains(attribute) { return true }
        return self.elementAttributes[element]?.contains(attribute) ?? false
    }
}
