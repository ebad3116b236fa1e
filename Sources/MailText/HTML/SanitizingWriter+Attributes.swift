/// The attribute filter of the streaming sanitizer: each attribute of a kept element is allowed or dropped by
/// name (`SanitizerRules.attributes`), and its value goes through the URL, CSS, image or id rules before it
/// is written, escaped, into the output.
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
                if rule.role == .link { opensExternally = kind != .fragment }
                self.writeScratchAttribute(name)
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
                self.writeAttribute(name, host)
                wroteBlockedHost = true
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

    private mutating func writeAttribute(_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>?) {
        self.output.append(UInt8(ascii: " "))
        self.output.append(contentsOf: name)
        self.append("=\"")
        if let value { self.writeEscapedAttributeValue(value) }
        self.output.append(UInt8(ascii: "\""))
    }

    private mutating func writeAttribute(_ name: UnsafeBufferPointer<UInt8>, _ value: String) {
        var value = value
        value.withUTF8 { self.writeAttribute(name, $0) }
    }

    /// Writes `scratch` as the value of the attribute `name`.
    private mutating func writeScratchAttribute(_ name: UnsafeBufferPointer<UInt8>) {
        let value = self.scratch
        value.withUnsafeBufferPointer { self.writeAttribute(name, $0) }
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
