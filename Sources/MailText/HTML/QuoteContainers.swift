import CLibXML2

/// Finds and removes the quoted history that mail clients append to replies, by DOM inspection.
///
/// Each client marks its quote differently, so each rule names the client it comes from. Removal is by element,
/// never by searching the text for "On … wrote:" across the document (such a search cuts at the first "on "
/// of the mail). Three kinds of marker exist:
/// - a container that holds the whole quote (Gmail, Apple Mail, Yahoo, ProtonMail, Thunderbird), removed alone;
/// - a header that starts the quote (Outlook, Hotmail), removed with everything after it in its container;
/// - a plain or left-bordered `blockquote` that ends the message (mail.ru, Yandex and many others), removed
///   only when nothing follows it: a quote with reply text after it is an interleaved answer and stays.
/// A container or trailing quote takes the attribution line just above it ("… wrote:") with it. A Gmail or
/// ProtonMail container that also holds the sender's own text (answers between its quotes, a forward) stays.
enum QuoteContainers {
    /// What to do with an element that marks a quote.
    enum Removal: Equatable {
        /// Remove the element; it contains the whole quote.
        case container
        /// Remove the element and everything after it: it is a reply header and the quote follows it.
        case fromHereOn
    }

    /// Class names of whole-quote containers.
    static let containerClasses: Set<String> = [
        "gmail_quote",  // Gmail: div (and blockquote) around the attribution and the quote
        "gmail_quote_container",  // Gmail, 2024 markup
        "gmail_attr",  // Gmail: the "On … wrote:" line when it stands outside gmail_quote
        "yahoo_quoted",  // Yahoo Mail
        "protonmail_quote",  // ProtonMail
        "moz-cite-prefix",  // Thunderbird: the attribution line before its blockquote
    ]

    /// Class names of reply headers that start a quote.
    static let headerClasses: Set<String> = [
        "outlookmessageheader"  // Outlook 2003-era "-----Original Message-----" block
    ]

    /// Element ids that mark where a quoted original starts (lowercased), with the spelling the clients use,
    /// which the sanitizer writes back: they are the only ids it keeps.
    static let markerIDs: [String: String] = [
        "divrplyfwdmsg": "divRplyFwdMsg",  // Outlook on the web / new Outlook: the From/Sent/To/Subject block
        "appendonsend": "appendonsend",  // Outlook on the web: the empty marker after which the original is appended
        "stopspelling": "stopSpelling",  // Hotmail: the <hr> above the original's header lines
    ]

    /// Classes of `div` containers whose quotes are `blockquote`s inside them, so that any other text in them
    /// is the sender's: answers written between the quotes (Gmail puts them inside its container) or a
    /// forwarded message (Gmail forwards sit in the same container, with no blockquote). Yahoo's container
    /// holds its quote as plain `div`s, so it is not among them.
    static let blockquoteContainerClasses: Set<String> = ["gmail_quote", "gmail_quote_container", "protonmail_quote"]

    /// Inline-style fragments (lowercased, spaces removed) of Outlook desktop's reply header border.
    static let headerBorderStyles: [String] = ["border-top:solid#e1e1e1", "border-top:solid#b5c4df"]

    /// The canonical spelling of a marker id, accepting quoted-printable debris (`3D"divRplyFwdMsg"`).
    static func markerID(_ raw: String) -> String? {
        self.markerIDs[self.normalizedName(Substring(raw))]
    }

    /// A class or id name lowercased, without the `3D"…"` that quoted-printable leaves when a message's HTML
    /// was stored undecoded (`class=3D"gmail_quote"` parses as the class `3d"gmail_quote"`).
    static func normalizedName(_ raw: Substring) -> String {
        var name = Substring(raw.lowercased())
        if name.hasPrefix("3d\"") || name.hasPrefix("3d'") { name = name.dropFirst(2) }
        while let first = name.first, first == "\"" || first == "'" { name = name.dropFirst() }
        while let last = name.last, last == "\"" || last == "'" { name = name.dropLast() }
        return String(name)
    }

    /// Whether `element` marks a quote, and how it is removed.
    static func removal(for element: xmlNodePtr, named name: String, within root: xmlNodePtr) -> Removal? {
        let classes = element.classTokens.map(self.normalizedName)
        if classes.contains(where: self.containerClasses.contains) { return .container }
        if name == "blockquote", element.attribute("type")?.trimmingCSSWhitespace().lowercased() == "cite" {
            return .container  // Apple Mail and Thunderbird
        }
        if classes.contains(where: self.headerClasses.contains) { return .fromHereOn }
        if let id = element.attribute("id"), self.markerID(id) != nil { return .fromHereOn }
        if name == "div", let style = element.attribute("style") {
            let compact = String(style.lowercased().filter { !$0.isWhitespace })
            if self.headerBorderStyles.contains(where: { compact.contains($0) }) { return .fromHereOn }
        }
        // Outlook, in every language: a rule, then From/Sent/To/Subject lines.
        if name == "hr", QuoteLines.headerBlockFollows(element, within: root) { return .fromHereOn }
        return nil
    }

    /// Removes every quote under `root`; returns whether anything was removed.
    static func remove(under root: xmlNodePtr) -> Bool {
        var removedAny = false
        var next = root.pointee.children
        while let node = next {
            guard let name = node.elementName, let removal = self.removal(for: node, named: name, within: root) else {
                next = node.pointee.children ?? node.following(within: root)
                continue
            }
            if removal == .container && self.holdsSendersText(node, named: name) {
                next = node.following(within: root)  // interleaved answers or a forward: nothing inside is removed
                continue
            }
            removedAny = true
            switch removal {
            case .container:
                QuoteAttribution.remove(before: node, within: root)
                if node.classTokens.contains(where: { self.normalizedName($0) == "moz-cite-prefix" }),
                    let quote = node.nextElementSibling, quote.elementName == "blockquote"
                {
                    quote.removeFromTree()  // Thunderbird's blockquote follows its prefix
                }
                next = node.following(within: root)
                node.removeFromTree()
            case .fromHereOn:
                let top = self.outermostStart(of: node, within: root)
                self.removeSeparators(before: top)
                let parent = top.pointee.parent
                next = parent.flatMap { $0 == root ? nil : $0.following(within: root) }
                var current: xmlNodePtr? = top
                while let doomed = current {
                    current = doomed.pointee.next
                    doomed.removeFromTree()
                }
            }
        }
        while let quote = TrailingQuote.find(under: root) {
            QuoteAttribution.remove(before: quote, within: root)
            quote.removeFromTree()
            removedAny = true
        }
        return removedAny
    }

    /// Whether a quote container holds text of the sender's: answers beside its blockquotes (any text there
    /// but an attribution), or a forwarded message (Gmail's attribution then opens with a dashed line,
    /// "---------- Forwarded message ---------", in every language).
    static func holdsSendersText(_ container: xmlNodePtr, named name: String) -> Bool {
        guard name != "blockquote",
            container.classTokens.contains(where: { self.blockquoteContainerClasses.contains(self.normalizedName($0)) })
        else { return false }
        var text = ""
        var hasBlockquote = false
        var next = container.pointee.children
        while let current = next {
            if let childName = current.elementName {
                if current.classTokens.contains(where: { self.normalizedName($0) == "gmail_attr" }) {
                    if QuoteLines.text(of: current).trimmingCSSWhitespace().hasPrefix("-----") { return true }
                    next = current.following(within: container)
                    continue
                }
                if childName == "blockquote" || TextExtractor.invisibleElements.contains(childName) {
                    hasBlockquote = hasBlockquote || childName == "blockquote"
                    next = current.following(within: container)
                    continue
                }
                if childName == "img" { text += " [image] " }
                if QuoteLines.lineBreakingElements.contains(childName) { text += " " }
            } else if current.pointee.type == XML_TEXT_NODE || current.pointee.type == XML_CDATA_SECTION_NODE {
                text += current.textContent
            }
            next = current.pointee.children ?? current.following(within: container)
        }
        let line = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return hasBlockquote && !line.isEmpty && !QuoteAttribution.isAttribution(line)
    }

    /// Climbs from a reply header to the outermost ancestor that starts with it, so that "everything after"
    /// includes the quote when Outlook wraps the header in an extra `div` (desktop Outlook does).
    private static func outermostStart(of node: xmlNodePtr, within root: xmlNodePtr) -> xmlNodePtr {
        var current = node
        while let parent = current.pointee.parent, parent != root, parent.pointee.type == XML_ELEMENT_NODE,
            self.isFirstMeaningfulChild(current, of: parent)
        {
            current = parent
        }
        return current
    }

    private static func isFirstMeaningfulChild(_ node: xmlNodePtr, of parent: xmlNodePtr) -> Bool {
        var child = parent.pointee.children
        while let candidate = child, candidate != node {
            if self.isMeaningful(candidate) { return false }
            child = candidate.pointee.next
        }
        return true
    }

    /// Whether a node shows anything: an element other than `br`, or text that is not only whitespace.
    static func isMeaningful(_ node: xmlNodePtr) -> Bool {
        switch node.pointee.type {
        case XML_ELEMENT_NODE: return node.elementName != "br"
        case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
            return node.textContent.contains(where: { !$0.isWhitespace })
        default: return false  // comments and processing instructions (libxml2's C enum, not ours)
        }
    }

    /// Removes the `<hr>` Outlook puts before its reply header (skipping whitespace and `br`).
    private static func removeSeparators(before node: xmlNodePtr) {
        var sibling = node.pointee.prev
        while let candidate = sibling {
            sibling = candidate.pointee.prev
            if candidate.elementName == "hr" {
                candidate.removeFromTree()
            } else if self.isMeaningful(candidate) {
                return
            }
        }
    }
}
