import CLibXML2

/// Finds and removes the quoted history that mail clients append to replies, by DOM inspection.
///
/// Each client marks its quote differently, so each rule names the client it comes from. Removal is by element,
/// never by searching the text for "On … wrote:" across the document (lesson 10 of lessons-from-the-ios-app.md:
/// that cut at the first "on " in the mail). Two kinds of marker exist:
/// - a container that holds the whole quote (Gmail, Apple Mail, Yahoo, ProtonMail, Thunderbird), removed alone;
/// - a header that starts the quote (Outlook), removed with everything after it in its container.
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

    /// Element ids of reply headers that start a quote.
    static let headerIDs: Set<String> = [
        "divrplyfwdmsg",  // Outlook on the web / new Outlook: the From/Sent/To/Subject block
        "appendonsend",  // Outlook on the web: the empty marker after which the original is appended
    ]

    /// Inline-style fragments (lowercased, spaces removed) of Outlook desktop's reply header border.
    static let headerBorderStyles: [String] = ["border-top:solid#e1e1e1", "border-top:solid#b5c4df"]

    /// Endings of attribution lines ("On Mon, Bob <b@x> wrote:") in a few languages.
    static let attributionEndings: [String] = [
        "wrote:", "schrieb:", "a écrit :", "a écrit:", "escribió:", "scrisse:", "schreef:", "skrev:",
    ]

    /// Whether `element` marks a quote, and how it is removed.
    static func removal(for element: xmlNodePtr, named name: String) -> Removal? {
        let classes = element.classTokens
        if classes.contains(where: { self.containerClasses.contains(String($0)) }) { return .container }
        if name == "blockquote", element.attribute("type")?.trimmingCSSWhitespace().lowercased() == "cite" {
            return .container  // Apple Mail and Thunderbird
        }
        if classes.contains(where: { self.headerClasses.contains(String($0)) }) { return .fromHereOn }
        if let id = element.attribute("id"), self.headerIDs.contains(id.lowercased()) { return .fromHereOn }
        if name == "div", let style = element.attribute("style") {
            let compact = String(style.lowercased().filter { !$0.isWhitespace })
            if self.headerBorderStyles.contains(where: { compact.contains($0) }) { return .fromHereOn }
        }
        return nil
    }

    /// Removes every quote under `root`; returns whether anything was removed.
    static func remove(under root: xmlNodePtr) -> Bool {
        var removedAny = false
        var next = root.pointee.children
        while let node = next {
            guard let name = node.elementName, let removal = self.removal(for: node, named: name) else {
                next = node.pointee.children ?? HTMLSanitizer.following(node, within: root)
                continue
            }
            removedAny = true
            switch removal {
            case .container:
                self.removeAttribution(before: node)
                if node.classTokens.contains("moz-cite-prefix"), let quote = node.nextElementSibling,
                    quote.elementName == "blockquote"
                {
                    quote.removeFromTree()  // Thunderbird's blockquote follows its prefix
                }
                next = HTMLSanitizer.following(node, within: root)
                node.removeFromTree()
            case .fromHereOn:
                let top = self.outermostStart(of: node, within: root)
                self.removeSeparators(before: top)
                let parent = top.pointee.parent
                next = parent.flatMap { $0 == root ? nil : HTMLSanitizer.following($0, within: root) }
                var current: xmlNodePtr? = top
                while let doomed = current {
                    current = doomed.pointee.next
                    doomed.removeFromTree()
                }
            }
        }
        return removedAny
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
    private static func isMeaningful(_ node: xmlNodePtr) -> Bool {
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

    /// Removes an "On … wrote:" attribution standing just before a quote container (Apple Mail puts it in a
    /// `div` before `<blockquote type=cite>`; some clients leave it as bare text followed by `<br>`).
    private static func removeAttribution(before node: xmlNodePtr) {
        var sibling = node.pointee.prev
        var skipped: [xmlNodePtr] = []
        while let candidate = sibling {
            sibling = candidate.pointee.prev
            guard self.isMeaningful(candidate) else {
                skipped.append(candidate)
                continue
            }
            guard self.isAttribution(candidate) else { return }
            candidate.removeFromTree()
            for node in skipped where node.elementName == "br" { node.removeFromTree() }
            return
        }
    }

    private static func isAttribution(_ node: xmlNodePtr) -> Bool {
        guard let content = xmlNodeGetContent(node) else { return false }
        defer { chatmail_xmlFree(content) }
        let text = String(cString: content).split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        guard !text.isEmpty, text.count <= 400 else { return false }
        let lowered = text.lowercased()
        return self.attributionEndings.contains(where: { lowered.hasSuffix($0) })
    }
}
