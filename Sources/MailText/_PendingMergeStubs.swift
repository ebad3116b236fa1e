// TEMPORARY: minimal stand-ins for APIs being written on the mailtext-html and mailtext-plain
// branches, so the pipeline compiles and its own tests run meanwhile. Deleted when they merge.
import Foundation

// TEMPORARY stand-ins for the mailtext-plain branch.
public struct PlainTextCleaning: Sendable, Equatable {
    public var text: String
    public var removedQuote: Bool
    public var removedSignature: Bool
    public var forwarded: Bool
}

public enum PlainTextCleaner {
    public static func clean(_ text: String, isFlowed: Bool = false, delSp: Bool = false) -> PlainTextCleaning {
        PlainTextCleaning(text: text, removedQuote: false, removedSignature: false, forwarded: false)
    }
}

public enum FormatFlowed {
    public static func decode(_ text: String, delSp: Bool) -> String { text }
}
