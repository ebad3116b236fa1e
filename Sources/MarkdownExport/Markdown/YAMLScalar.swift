/// YAML front matter values written so that no text can end the front matter or add keys.
enum YAMLScalar {
    /// `text` as a double-quoted YAML scalar: `"`, `\` and every control, line or paragraph
    /// separator and BOM are escaped, so the value is always one line, and so are the noncharacters
    /// U+FFFE and U+FFFF, which YAML does not allow in a document at all.
    static func quoted(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\t": output += "\\t"
            default:
                let value = scalar.value
                if value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029
                    || value == 0xFEFF
                    || value == 0xFFFE || value == 0xFFFF
                {
                    output += "\\u" + String(value, radix: 16, uppercase: true).leftPadded(to: 4)
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        return output + "\""
    }
}
