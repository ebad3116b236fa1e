extension CSSFilter {
    /// Allowed property names, as a byte-keyed table for the streaming sanitizer.
    static let allowedPropertyTable = NameTable(allowedProperties.map { ($0, true) })

    static let allowedPrefixBytes: [[UInt8]] = allowedPropertyPrefixes.map { Array($0.utf8) }

    /// Appends the allowed declarations of an inline `style` to `output`, as `property: value` joined by
    /// "; " (the same text `sanitize(_:)` returns); appends nothing when no declaration survives.
    ///
    /// Works on the attribute's bytes with no allocation beyond the two reused buffers: this runs for most
    /// elements of newsletter HTML.
    static func appendSanitized(
        _ style: UnsafeBufferPointer<UInt8>, to output: inout [UInt8], compactScratch: inout [UInt8]
    ) {
        var start = 0
        var quote: UInt8 = 0
        var depth = 0
        var index = 0
        while index <= style.count {
            let atEnd = index == style.count
            let byte: UInt8 = atEnd ? 0x3B : style[index]
            if !atEnd && quote != 0 {
                if byte == quote { quote = 0 }
            } else if !atEnd && (byte == 0x22 || byte == 0x27) {  // " '
                quote = byte
            } else if !atEnd && byte == 0x28 {  // (
                depth += 1
            } else if !atEnd && byte == 0x29 {  // )
                depth = max(0, depth - 1)
            } else if byte == 0x3B && (depth == 0 || atEnd) {  // ;
                self.appendDeclaration(
                    UnsafeBufferPointer(rebasing: style[start..<index]), to: &output, compactScratch: &compactScratch)
                start = index + 1
            }
            index += 1
        }
    }

    /// Appends one `property: value` declaration if it is allowed.
    private static func appendDeclaration(
        _ declaration: UnsafeBufferPointer<UInt8>, to output: inout [UInt8], compactScratch: inout [UInt8]
    ) {
        guard let colon = declaration.firstIndex(of: UInt8(ascii: ":")) else { return }
        let property = self.trimmedRange(declaration, declaration.startIndex, colon)
        let value = self.trimmedRange(declaration, colon + 1, declaration.endIndex)
        guard !property.isEmpty, !value.isEmpty else { return }
        // Lowercase the property into the scratch buffer for the table lookup.
        if compactScratch.count < max(property.count, value.count) {
            compactScratch = [UInt8](repeating: 0, count: 2 * max(property.count, value.count, 32))
        }
        let allowed = compactScratch.withUnsafeMutableBufferPointer { scratch in
            for (offset, position) in property.enumerated() { scratch[offset] = self.lowercased(declaration[position]) }
            let name = UnsafeBufferPointer(rebasing: scratch[0..<property.count])
            return self.allowedPropertyTable.value(for: name) != nil
                || self.allowedPrefixBytes.contains { prefix in
                    name.starts(with: prefix) && (name.count == prefix.count || name[prefix.count] == UInt8(ascii: "-"))
                }
        }
        guard allowed,
            self.isSafeValue(UnsafeBufferPointer(rebasing: declaration[value]), compactScratch: &compactScratch)
        else { return }
        if !output.isEmpty {
            output.append(UInt8(ascii: ";"))
            output.append(UInt8(ascii: " "))
        }
        for position in property { output.append(self.lowercased(declaration[position])) }
        output.append(UInt8(ascii: ":"))
        output.append(UInt8(ascii: " "))
        output.append(contentsOf: UnsafeBufferPointer(rebasing: declaration[value]))
    }

    /// The byte-level form of `isAllowed`'s value checks: no `<` or `>`, no controls inside, and no forbidden
    /// fragment once lowercased with whitespace and controls removed (so `u r l (` and `URL(` are caught alike).
    private static func isSafeValue(_ value: UnsafeBufferPointer<UInt8>, compactScratch: inout [UInt8]) -> Bool {
        // The caller made the scratch buffer at least as long as the value.
        compactScratch.withUnsafeMutableBufferPointer { scratch in
            var length = 0
            for byte in value {
                if byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") { return false }
                if (byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D && byte != 0x0C) || byte == 0x7F {
                    return false
                }
                if byte <= 0x20 { continue }
                scratch[length] = self.lowercased(byte)
                length += 1
            }
            let compact = UnsafeBufferPointer(rebasing: scratch[0..<length])
            for fragment in self.forbiddenFragmentBytes where self.contains(compact, fragment) { return false }
            return true
        }
    }

    private static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, needle.count <= haystack.count else { return needle.isEmpty }
        var index = 0
        let last = haystack.count - needle.count
        while index <= last {
            if haystack[index] == first {
                var matched = 1
                while matched < needle.count && haystack[index + matched] == needle[matched] { matched += 1 }
                if matched == needle.count { return true }
            }
            index += 1
        }
        return false
    }

    /// The range of `bytes[lower..<upper]` without ASCII whitespace and controls at either end.
    private static func trimmedRange(_ bytes: UnsafeBufferPointer<UInt8>, _ lower: Int, _ upper: Int) -> Range<Int> {
        var lower = lower
        var upper = upper
        while lower < upper, bytes[lower] <= 0x20 || bytes[lower] == 0x7F { lower += 1 }
        while upper > lower, bytes[upper - 1] <= 0x20 || bytes[upper - 1] == 0x7F { upper -= 1 }
        return lower..<upper
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte + 32 : byte
    }
}
