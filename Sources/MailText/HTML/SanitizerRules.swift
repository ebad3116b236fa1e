/// The allow-lists compiled into byte-keyed tables for the streaming sanitizer: every per-tag and
/// per-attribute decision is one lookup on the bytes libxml2 hands over, with no `String` built.
///
/// `AllowList` stays the one place to read and change the policy; these tables are derived from it.
enum SanitizerRules {
    /// How the sanitizer treats one element name.
    struct Element: Sendable {
        enum Action: UInt8, Sendable {
            case keep, unwrap, remove
        }

        /// Elements whose handling goes beyond the allow-list.
        enum Role: UInt8, Sendable {
            case ordinary, paragraph, image, link
        }

        var action: Action
        var role: Role = .ordinary
        /// Written as `div` (a semantic block).
        var isRenamed = false
        /// Written without an end tag.
        var isVoid = false
        /// Ends the run of inline content at the start of the body that the sanitizer wraps in a `div`.
        var isBlock = false
        /// A start tag of the same name makes libxml2 close this element (`<li>` closes an open `<li>`).
        var closesItself = false
        /// Unwrapped, but drawn as a box of its own: its text must not run into the next word.
        var isBox = false
        /// Bits of the element-specific attribute groups that apply (0: global attributes only).
        var attributeGroups: UInt64 = 0

        static let unknown = Element(action: .unwrap)
    }

    /// What an allowed attribute's value goes through.
    enum AttributeRole: UInt8, Sendable {
        case plain, style, link, cite, imageSource, legacyBlockedSource, blockedHost, target, id
    }

    /// One allowed attribute name.
    struct Attribute: Sendable {
        var role: AttributeRole
        /// Allowed on every kept element.
        var isGlobal: Bool
        /// Otherwise, the element attribute groups it is allowed in.
        var groups: UInt64
    }

    /// Elements that end a leading run of inline content (see `SanitizingWriter`).
    static let blockElements: Set<String> = [
        "div", "p", "table", "blockquote", "ul", "ol", "dl", "pre", "hr", "h1", "h2", "h3", "h4", "h5", "h6",
        "center", "figure", "details",
    ]

    /// Elements libxml2 closes itself: the sanitizer writes no end tag for them.
    static let voidElements: Set<String> = ["br", "hr", "img", "col", "wbr"]

    /// Elements that libxml2 (its `htmlStartClose` table) closes when another of the same name starts.
    static let selfClosingElements: Set<String> = [
        "a", "col", "colgroup", "form", "li", "option", "p", "tbody", "td", "th", "tr",
    ]

    /// "div", NUL-terminated, for comparing with the names libxml2 reports; never freed.
    nonisolated(unsafe) static let divName: UnsafePointer<UInt8> = {
        let storage = UnsafeMutablePointer<UInt8>.allocate(capacity: 4)
        for (index, byte) in "div\0".utf8.enumerated() { storage[index] = byte }
        return UnsafePointer(storage)
    }()

    /// One bit per element that has attributes of its own.
    static let attributeGroupBits: [String: UInt64] = {
        var bits: [String: UInt64] = [:]
        for (index, name) in AllowList.elementAttributes.keys.sorted().enumerated() { bits[name] = 1 << UInt64(index) }
        return bits
    }()

    static let elements: NameTable<Element> = {
        var entries: [(String, Element)] = []
        // "html" and "body" only wrap the content; libxml2 reports them even when the mail has neither.
        for name in ["html", "body"] { entries.append((name, Element(action: .unwrap))) }
        for name in AllowList.removedWithContent { entries.append((name, Element(action: .remove))) }
        for name in AllowList.unwrappedForText.union(AllowList.removedVoidElements) {
            entries.append((name, Element(action: .unwrap, isBox: ["button", "textarea", "legend"].contains(name))))
        }
        for name in AllowList.renamedToDiv {
            entries.append((name, Element(action: .keep, isRenamed: true, isBlock: true)))
        }
        for name in AllowList.elements {
            var element = Element(action: .keep)
            switch name {
            case "p": element.role = .paragraph
            case "img": element.role = .image
            case "a": element.role = .link
            default: break  // most elements need nothing beyond the lists (a switch over strings)
            }
            element.isVoid = SanitizerRules.voidElements.contains(name)
            element.closesItself = SanitizerRules.selfClosingElements.contains(name)
            element.isBlock = SanitizerRules.blockElements.contains(name)
            element.attributeGroups = SanitizerRules.attributeGroupBits[name] ?? 0
            entries.append((name, element))
        }
        return NameTable(entries)
    }()

    static let attributes: NameTable<Attribute> = {
        var table: [String: Attribute] = [:]
        func role(of name: String) -> AttributeRole {
            switch name {
            case "style": .style
            case "href": .link
            case "cite": .cite
            case "src": .imageSource
            case "data-blocked-src": .legacyBlockedSource
            case "data-blocked-host": .blockedHost
            case "target": .target
            case "id": .id
            default: .plain
            }
        }
        for name in AllowList.globalAttributes where !name.hasPrefix("on") {
            table[name] = Attribute(role: role(of: name), isGlobal: true, groups: 0)
        }
        for (element, names) in AllowList.elementAttributes {
            let bit = SanitizerRules.attributeGroupBits[element] ?? 0
            for name in names where !name.hasPrefix("on") && table[name]?.isGlobal != true {
                table[name, default: Attribute(role: role(of: name), isGlobal: false, groups: 0)].groups |= bit
            }
        }
        return NameTable(table.map { ($0.key, $0.value) })
    }()
}
