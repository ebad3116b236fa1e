import Foundation

/// A parsed `fields=` partial-response selector: `a,b/c,d(e,f)`.
///
/// The mask is a tree: a leaf selects a whole field; a node with children keeps only those children.
/// Arrays are filtered element by element, as Google does for `messages/id`.
public struct FieldMask: Sendable, Equatable {
    /// Selected field name → sub-mask (`nil` = the whole field).
    var children: [String: FieldMask?]

    /// Parses a selector; returns `nil` for unbalanced parentheses or an empty selector.
    public init?(_ text: String) {
        var index = text.startIndex
        guard let parsed = FieldMask.parseList(text, &index), index == text.endIndex, !parsed.isEmpty else {
            return nil
        }
        children = parsed
    }

    init(children: [String: FieldMask?]) { self.children = children }

    private static func parseList(_ text: String, _ index: inout String.Index) -> [String: FieldMask?]? {
        var result: [String: FieldMask?] = [:]
        while index < text.endIndex {
            let c = text[index]
            if c == ")" { break }
            if c == "," || c == " " {
                index = text.index(after: index)
                continue
            }
            guard let (name, sub) = parseSelector(text, &index) else { return nil }
            merge(&result, name, sub)
        }
        return result
    }

    /// One selector: `name`, `name/rest`, or `name(list)`.
    private static func parseSelector(_ text: String, _ index: inout String.Index) -> (String, FieldMask?)? {
        var name = ""
        while index < text.endIndex, !",/()".contains(text[index]) {
            name.append(text[index])
            index = text.index(after: index)
        }
        name = name.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { return nil }
        guard index < text.endIndex else { return (name, nil) }
        switch text[index] {
        case "/":
            index = text.index(after: index)
            guard let (childName, childMask) = parseSelector(text, &index) else { return nil }
            return (name, FieldMask(children: [childName: childMask]))
        case "(":
            index = text.index(after: index)
            guard let list = parseList(text, &index), index < text.endIndex, text[index] == ")" else { return nil }
            index = text.index(after: index)
            return (name, FieldMask(children: list))
        default:
            return (name, nil)
        }
    }

    private static func merge(_ into: inout [String: FieldMask?], _ name: String, _ sub: FieldMask?) {
        guard let existing = into[name] else {
            into[name] = .some(sub)
            return
        }
        guard let old = existing, let new = sub else {
            into[name] = .some(nil)
            return
        }
        var combined = old.children
        for (key, value) in new.children { merge(&combined, key, value) }
        into[name] = .some(FieldMask(children: combined))
    }

    /// Applies the mask to a response value.
    public func apply(to value: JSONValue) -> JSONValue {
        switch value {
        case .object(let pairs):
            return .object(
                pairs.compactMap { key, child in
                    guard let entry = children[key] else { return nil }
                    guard let sub = entry else { return (key, child) }
                    return (key, sub.apply(to: child))
                })
        case .array(let items):
            return .array(items.map { apply(to: $0) })
        default:
            return value
        }
    }
}
