import CLibXML2

/// Finds a `blockquote` that ends the message and is marked as a quote only by being one: no class and no
/// type (mail.ru, Yandex, many webmails and older clients), or a left border in its inline style, the way
/// mail.ru and Yandex draw the quote bar (`border-left:1px solid #0857A6; margin:10px; padding-left:10px`).
///
/// "Ends the message" means nothing visible follows it: a quote followed by more text is an interleaved answer
/// and stays. A blockquote with any other class, a `type`, or a style without a left border (Gmail's indent is
/// `margin:0 0 0 40px;border:none`) is formatting, not a quote, and stays wherever it is.
enum TrailingQuote {
    /// The trailing quote under `root`, if the last visible thing in it is one.
    static func find(under root: xmlNodePtr) -> xmlNodePtr? {
        var candidate = root.pointee.last
        while let node = candidate {
            switch node.pointee.type {
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if node.textContent.contains(where: { !$0.isWhitespace }) { return nil }
            case XML_ELEMENT_NODE:
                guard QuoteLines.hasVisibleContent(node) else { break }
                if node.elementName == "blockquote" { return self.isQuote(node) ? node : nil }
                guard let last = node.pointee.last else { return nil }  // an image
                candidate = last  // the trailing quote may sit inside wrappers
                continue
            default:
                break  // comments and processing instructions (libxml2's C enum, not ours)
            }
            candidate = node.pointee.prev
        }
        return nil
    }

    /// Whether a blockquote is marked only as a quote: no class, no type, and no style or a left border.
    static func isQuote(_ blockquote: xmlNodePtr) -> Bool {
        if blockquote.hasAttribute("type") { return false }
        if let classes = blockquote.attribute("class"), !classes.allSatisfy(\.isWhitespace) { return false }
        guard let style = blockquote.attribute("style") else { return true }
        return self.hasLeftBorder(style)
    }

    /// Whether inline CSS leaves a visible left border (later declarations win, as in a browser).
    static func hasLeftBorder(_ style: String) -> Bool {
        var visible = false
        for declaration in CSSFilter.parse(style) {
            let value = declaration.value.lowercased()
            let hidden =
                value.contains("none") || value.contains("hidden")
                || value.split(separator: " ").first.map { CSSFilter.isZeroLength(String($0)) } == true
            switch declaration.property {
            case "border-left", "border-left-style":
                visible = !hidden
            case "border", "border-style":
                if hidden { visible = false }
            default:
                continue  // other properties leave the border as it is (a switch over strings, not our enum)
            }
        }
        return visible
    }
}
