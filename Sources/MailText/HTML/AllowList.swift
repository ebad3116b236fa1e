/// The sanitizer's allow-lists, kept as data so they can be reviewed and tested on their own.
///
/// This is an allow-list, not a deny-list (a deny-list misses whatever it did not foresee): anything not named
/// here is either unwrapped (elements) or dropped (attributes); event handlers (`on…`) are refused whatever the
/// lists say. `SanitizerRules` compiles these lists into the tables the sanitizer looks names up in.
enum AllowList {
    /// Elements kept as they are.
    static let elements: Set<String> = [
        "a", "abbr", "b", "blockquote", "br", "caption", "center", "cite", "code", "col", "colgroup", "dd", "del",
        "details", "dfn", "div", "dl", "dt", "em", "figcaption", "figure", "font", "h1", "h2", "h3", "h4", "h5",
        "h6", "hr", "i", "img", "ins", "kbd", "li", "mark", "ol", "p", "pre", "q", "s", "samp", "small", "span",
        "strike", "strong", "sub", "summary", "sup", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "tt",
        "u", "ul", "var", "wbr",
    ]

    /// Elements removed together with their content, because that content is not text for people: code,
    /// styles, metadata, inert templates, embedded documents, and fallbacks no mail viewer ever shows.
    static let removedWithContent: Set<String> = [
        "script", "style", "template", "iframe", "frame", "frameset", "noembed", "noframes", "audio", "video",
        "canvas", "portal", "datalist",
        "head", "meta", "base", "link", "title",
        // Office's document properties, when they stand outside the conditional comment that usually hides them
        "xml",
        // a form control with no text of its own: its value is not the message
        "input",
    ]

    /// Elements whose markup goes (it is active, or a phishing surface) while their text stays, because that
    /// text is what the sender wrote: labels and values of form controls, the fallback content of plugins, and
    /// `noscript`, which a browser shows whenever scripts do not run, as in every mail viewer.
    static let unwrappedForText: Set<String> = [
        "form", "button", "textarea", "label", "select", "optgroup", "output", "legend", "object", "applet",
        "noscript", "svg", "math",
    ]

    /// Void elements that are removed, but whose misparsed "children" are kept.
    ///
    /// libxml2 2.9 does not know some of these as void, so `<embed src=x><p>after</p>` puts the paragraph
    /// inside the embed; removing the embed with its content would lose mail text.
    static let removedVoidElements: Set<String> = ["embed", "param", "source", "track", "keygen", "bgsound"]

    /// Block elements kept as `div`, so the sanitized HTML still breaks lines where the sender meant.
    /// `option` is among them so that the options of a removed `select` read as lines, not as one word.
    static let renamedToDiv: Set<String> = [
        "section", "article", "header", "footer", "main", "nav", "aside", "address", "hgroup", "fieldset", "option",
    ]

    /// Attributes allowed on every kept element.
    ///
    /// `class` is kept: without any stylesheet (every `<style>` is removed) it cannot change rendering, and it
    /// keeps quote markers such as `gmail_quote` visible to later passes. `id` is dropped (ids become globals in
    /// a browser, DOM clobbering, and can collide with the viewer's own page), except the few fixed ids that
    /// mark a quoted original (`QuoteContainers.markerIDs`), which are rewritten to their canonical spelling.
    static let globalAttributes: Set<String> = [
        "title", "dir", "lang", "style", "class", "align", "valign", "width", "height", "bgcolor", "color", "id",
    ]

    /// Attributes allowed on specific elements, on top of `globalAttributes`.
    static let elementAttributes: [String: Set<String>] = [
        "a": ["href", "name", "target"],
        // data-blocked-host is our own marker for a blocked remote image: it names the host, never the URL.
        // data-blocked-src is the older marker, which carried the URL; it is read, but never written.
        "img": ["src", "alt", "width", "height", "data-blocked-host", "data-blocked-src"],
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
}
