// TEMPORARY: minimal stand-ins for APIs being written on the mailtext-html and mailtext-plain
// branches, so the pipeline compiles and its own tests run meanwhile. Deleted when they merge.
import Foundation

// TEMPORARY stand-ins for the mailtext-html branch.
public struct HTMLSanitizer: Sendable {
    public struct Options: Sendable {
        public var blockRemoteImages: Bool = true
        public init(blockRemoteImages: Bool = true) { self.blockRemoteImages = blockRemoteImages }
    }
    public init(options: Options = .init()) {}
    public func sanitize(_ html: String) -> String { html }
}

public struct HTMLConversion: Sendable, Equatable {
    public var text: String
    public var fullText: String
    public var removedQuotes: Bool
}

public enum HTMLToText {
    public static func convert(_ html: String) -> HTMLConversion {
        HTMLConversion(text: html, fullText: html, removedQuotes: false)
    }
}

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
