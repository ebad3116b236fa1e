/// The attribute filter of the streaming sanitizer: each attribute of a kept element is allowed or dropped by
/// name (`SanitizerRules.attributes`), and its value goes through the URL, CSS, image or id rules before it
/// is written, escaped, into the output. A value that could turn into markup is dropped with its attribute
/// (`couldBecomeMarkup`).
extension SanitizingWriter {
    mutating func writeAttributes(_ attributes: AttributeList, of element: SanitizerRules.Element) {
        var opensExternally = false
        var blockedHost: String? = nil
        var wroteBlockedHost = false
        for (name, value) in attributes {
            guard let rule = SanitizerRules.attributes.value(for: name),
                rule.isGlobal || rule.groups & element.attributeGroups != 0
            else { continue }
            switch rule.role {
            case .plain:
                self.writeAttribute(name, value)
            case .style:
                guard let value else { continue }
                self.scratch.removeAll(keepingCapacity: true)
                CSSFilter.appendSanitized(value, to: &self.scratch, compactScratch: &self.compactScratch)
                guard !self.scratch.isEmpty else { continue }
                self.writeScratchAttribute(name)
            case .link, .cite:
                guard let value else { continue }
                let kind = URLPolicy.classify(value, cleaned: &self.scratch)
                guard kind == .web || kind == .mailto || kind == .fragment else { continue }
                if self.writeScratchAttribute(name), rule.role == .link { opensExternally = kind != .fragment }
            case .imageSource:
                guard let value else { continue }
                switch URLPolicy.classify(value, cleaned: &self.scratch) {
                case .contentID:
                    self.writeScratchAttribute(name)
                case .web where self.blockRemoteImages:
                    blockedHost =
                        URLPolicy.displayHost(of: String(decoding: self.scratch, as: UTF8.self)) ?? blockedHost
                case .web:
                    self.writeScratchAttribute(name)
                case .fragment, .mailto, .unusable:
                    continue
                }
            case .legacyBlockedSource:
                guard let value, case .remote(let url) = URLPolicy.image(String(decoding: value, as: UTF8.self))
                else { continue }
                blockedHost = URLPolicy.displayHost(of: url) ?? blockedHost
            case .blockedHost:
                guard let value, let host = URLPolicy.validatedHost(String(decoding: value, as: UTF8.self)) else {
                    continue
                }
                wroteBlockedHost = self.writeAttribute(name, host)
            case .target:
                continue  // written again below, only for links that leave the message
            case .id:
                guard let value, let id = QuoteContainers.markerID(String(decoding: value, as: UTF8.self)) else {
                    continue
                }
                self.writeAttribute(name, id)
            }
        }
        if element.role == .link && opensExternally {
            self.append(#" target="_blank" rel="noopener noreferrer""#)
        }
        if let blockedHost, !wroteBlockedHost {
            self.append(#" data-blocked-host=""#)
            self.writeEscapedAttributeValue(Array(blockedHost.utf8))
            self.output.append(UInt8(ascii: "\""))
        }
    }

    /// Writes the attribute, unless its value could become markup; returns whether it was written.
    @discardableResult
    private mutating func writeAttribute(_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>?)
        -> Bool
    {
        if let value, Self.couldBecomeMarkup(value) { return false }
        self.output.append(UInt8(ascii: " "))
        self.output.append(contentsOf: name)
        self.append("=\"")
        if let value { self.writeEscapedAttributeValue(value) }
        self.output.append(UInt8(ascii: "\""))
        return true
    }

    @discardableResult
    private mutating func writeAttribute(_ name: UnsafeBufferPointer<UInt8>, _ value: String) -> Bool {
        var value = value
        return value.withUTF8 { self.writeAttribute(name, $0) }
    }

    /// Writes `scratch` as the value of the attribute `name`; returns whether it was written.
    @discardableResult
    private mutating func writeScratchAttribute(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        let value = self.scratch
        return value.withUnsafeBufferPointer { self.writeAttribute(name, $0) }
    }

    /// Whether a value, as written (entities decoded, after the URL or CSS rules), holds a `<` or a comment's
    /// end (`-->`, or `--!>`, which parsers accept too).
    ///
    /// Escaped, such a value is inert where it stands; but when the output is parsed again in another context
    /// (a table's foster parenting, a `select`, foreign content, `noscript`, or markup spliced around it) the
    /// same characters can end a comment or start a tag, which is how mutation XSS works. The rule is
    /// deliberately blunt, as conservative sanitizers' is: `title="a < b"` goes too, since telling a comparison
    /// from a tag would take a second parser agreeing with every browser's, and a lost tooltip or alt text
    /// costs little.
    static func couldBecomeMarkup(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        let dash = UInt8(ascii: "-")
        for index in value.indices {
            switch value[index] {
            case UInt8(ascii: "<"):
                return true
            case UInt8(ascii: ">"):
                if index >= 2 && value[index - 1] == dash && value[index - 2] == dash { return true }
                if index >= 3 && value[index - 1] == UInt8(ascii: "!") && value[index - 2] == dash
                    && value[index - 3] == dash
                {
                    return true
                }
            default:
                continue
            }
        }
        return false
    }

    private mutating func writeEscapedAttributeValue(_ value: [UInt8]) {
        value.withUnsafeBufferPointer { self.writeEscapedAttributeValue($0) }
    }

    /// Writes an attribute value with `&`, `"`, `<` and `>` escaped.
    private mutating func writeEscapedAttributeValue(_ value: UnsafeBufferPointer<UInt8>) {
        self.writeEscapedText(value, inAttribute: true)
    }
}

/// The attributes libxml2 passes with a start tag: a NULL-terminated array of name and value pointers
/// (a value is NULL for a bare attribute such as `nowrap`), valid only during the callback.
struct AttributeList: Sequence {
    let pointer: UnsafeMutablePointer<UnsafePointer<UInt8>?>?

    struct Iterator: IteratorProtocol {
        var cursor: UnsafeMutablePointer<UnsafePointer<UInt8>?>?

        mutating func next() -> (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>?)? {
            guard let cursor, let name = cursor[0] else { return nil }
            let value = cursor[1]
            self.cursor = cursor + 2
            return (
                UnsafeBufferPointer(start: name, count: SanitizingWriter.length(of: name)),
                value.map { UnsafeBufferPointer(start: $0, count: SanitizingWriter.length(of: $0)) }
            )
        }
    }

    func makeIterator() -> Iterator { Iterator(cursor: self.pointer) }

    /// The decoded value of the attribute called `name` ("" for a bare attribute), or nil when absent.
    func value(of name: String) -> String? {
        for (attributeName, value) in self where attributeName.elementsEqual(name.utf8) {
            return value.map { String(decoding: $0, as: UTF8.self) } ?? ""
        }
        return nil
    }
}
