import Foundation

/// How a link target (`<a href>`) is treated.
enum LinkDecision: Equatable {
    /// Kept; `opensExternally` is false only for in-message `#fragment` links.
    case keep(String, opensExternally: Bool)
    /// Dropped: a dangerous scheme, a relative URL (mail has no base URL), or garbage.
    case drop
}

/// How an image source (`<img src>`) is treated.
enum ImageDecision: Equatable {
    /// An inline part of the same message (`cid:`), always kept.
    case inline(String)
    /// A remote image (`http:` or `https:`): loading it tells the sender the mail was opened.
    case remote(String)
    /// Dropped: `data:`, `javascript:`, relative paths and every other scheme.
    case drop
}

/// Scheme checks for URLs in attributes.
///
/// The scheme is read the way a browser reads it: leading and trailing spaces and C0 controls are trimmed and
/// tabs and newlines anywhere are removed (WHATWG URL parsing), and the comparison ignores case. Entities such as
/// `&#106;` are already decoded by libxml2 before we see the value. A URL that still contains any other control
/// character (for example NUL in `java\0script:`) is dropped outright: no real link contains one. Percent-encoding
/// in the scheme position is not decoded by browsers, so `javascript%3A…` is a relative URL and dropped as such.
enum URLPolicy {
    /// Schemes a link may use.
    static let linkSchemes: Set<String> = ["http", "https", "mailto"]

    /// Cleans an attribute value as a browser's URL parser would, or returns `nil` if it holds control characters.
    static func clean(_ raw: String) -> String? {
        let withoutTabsAndNewlines = String(raw.unicodeScalars.filter { $0 != "\t" && $0 != "\n" && $0 != "\r" })
        let trimmed = withoutTabsAndNewlines.trimmingCSSWhitespace()
        if trimmed.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { return nil }
        return trimmed
    }

    /// The lowercased scheme of a cleaned URL, or `nil` for a relative URL.
    static func scheme(of url: String) -> String? {
        guard let colon = url.firstIndex(of: ":") else { return nil }
        let candidate = url[..<colon]
        guard let first = candidate.first, first.isASCII, first.isLetter else { return nil }
        let valid = candidate.allSatisfy {
            $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".")
        }
        return valid ? candidate.lowercased() : nil
    }

    /// Decides what happens to an `href`.
    static func link(_ raw: String) -> LinkDecision {
        guard let url = self.clean(raw), !url.isEmpty else { return .drop }
        if url.hasPrefix("#") { return url.count > 1 ? .keep(url, opensExternally: false) : .drop }
        guard let scheme = self.scheme(of: url), self.linkSchemes.contains(scheme) else { return .drop }
        return .keep(url, opensExternally: true)
    }

    /// Decides what happens to an `img src`.
    static func image(_ raw: String) -> ImageDecision {
        guard let url = self.clean(raw), !url.isEmpty, let scheme = self.scheme(of: url) else { return .drop }
        switch scheme {
        case "cid": return .inline(url)
        case "http", "https": return .remote(url)
        default: return .drop  // data:, javascript:, file:, … (a switch over strings, not our enum)
        }
    }

    /// The lowercased host and the path-and-query of an absolute `http(s)` URL, for tracker matching.
    static func hostAndPath(of url: String) -> (host: String, path: String)? {
        let utf8 = url.utf8
        // "://" found on bytes: this runs for every remote image.
        var cursor = utf8.startIndex
        var authorityStart: String.Index? = nil
        while cursor < utf8.endIndex {
            if utf8[cursor] == UInt8(ascii: ":") {
                let slash1 = utf8.index(after: cursor)
                if slash1 < utf8.endIndex, utf8[slash1] == UInt8(ascii: "/") {
                    let slash2 = utf8.index(after: slash1)
                    if slash2 < utf8.endIndex, utf8[slash2] == UInt8(ascii: "/") {
                        authorityStart = utf8.index(after: slash2)
                        break
                    }
                }
            }
            cursor = utf8.index(after: cursor)
        }
        guard let authorityStart else { return nil }
        let rest = url[authorityStart...]
        let hostEnd =
            rest.utf8.firstIndex(where: {
                $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#")
            })
            ?? rest.endIndex
        var authority = rest[..<hostEnd]
        if let at = authority.utf8.lastIndex(of: UInt8(ascii: "@")) {
            authority = authority[authority.index(after: at)...]
        }
        if let colon = authority.utf8.lastIndex(of: UInt8(ascii: ":")) { authority = authority[..<colon] }
        let host = authority.lowercased()
        guard !host.isEmpty else { return nil }
        return (host, String(rest[hostEnd...]).lowercased())
    }

    /// The host of a remote image's URL, for an "images blocked" notice: the URL itself (its path and query
    /// often identify the reader) is never kept.
    static func displayHost(of url: String) -> String? {
        self.hostAndPath(of: url).flatMap { self.validatedHost($0.host) }
    }

    /// `text` lowercased when it is a plain host name or IPv4 address (letters, digits, dots and hyphens), so
    /// that nothing else can pass as a host; otherwise `nil`.
    static func validatedHost(_ text: String) -> String? {
        let host = text.lowercased()
        let isHostByte: (UInt8) -> Bool = {
            ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: ".")
                || $0 == UInt8(ascii: "-")
        }
        guard !host.isEmpty, host.utf8.count <= 253, host.utf8.allSatisfy(isHostByte) else { return nil }
        return host
    }

    /// What a URL in an attribute is, judged on its bytes as `link(_:)` and `image(_:)` judge a string.
    enum Kind: Equatable {
        /// `#fragment`, a link inside the message (a bare `#` is `.unusable`).
        case fragment
        /// `http:` or `https:`.
        case web
        case mailto
        /// `cid:`, a part of the same message.
        case contentID
        /// Relative, another scheme, empty, or holding control characters: never kept.
        case unusable
    }

    /// Cleans an attribute value the way `clean(_:)` does and classifies it, writing the cleaned URL into
    /// `cleaned` (tabs and line breaks removed, spaces and C0 controls trimmed at the ends).
    ///
    /// Works on bytes because it runs for every link of every newsletter. A value with a non-ASCII byte at
    /// either end (Unicode whitespace, which `clean(_:)` also trims) goes through the string functions.
    static func classify(_ raw: UnsafeBufferPointer<UInt8>, cleaned: inout [UInt8]) -> Kind {
        cleaned.removeAll(keepingCapacity: true)
        var lower = 0
        var upper = raw.count
        while lower < upper, raw[lower] <= 0x20 { lower += 1 }
        while upper > lower, raw[upper - 1] <= 0x20 { upper -= 1 }
        guard lower < upper else { return .unusable }
        if raw[lower] >= 0x80 || raw[upper - 1] >= 0x80 {
            return self.classifyAsString(String(decoding: raw, as: UTF8.self), cleaned: &cleaned)
        }
        for index in lower..<upper {
            let byte = raw[index]
            if byte == 0x09 || byte == 0x0A || byte == 0x0D { continue }
            if byte < 0x20 || byte == 0x7F { return .unusable }
            cleaned.append(byte)
        }
        return self.kind(ofCleaned: cleaned)
    }

    private static func classifyAsString(_ raw: String, cleaned: inout [UInt8]) -> Kind {
        guard let url = self.clean(raw), !url.isEmpty else { return .unusable }
        cleaned.append(contentsOf: url.utf8)
        return self.kind(ofCleaned: cleaned)
    }

    private static func kind(ofCleaned url: [UInt8]) -> Kind {
        guard let first = url.first else { return .unusable }
        if first == UInt8(ascii: "#") { return url.count > 1 ? .fragment : .unusable }
        guard let colon = url.firstIndex(of: UInt8(ascii: ":")), colon > 0, Self.isLetter(first) else {
            return .unusable
        }
        var scheme: UInt64 = 0  // up to eight lowercased bytes, enough for every scheme compared below
        for index in 0..<colon {
            let byte = url[index]
            guard Self.isLetter(byte) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2B || byte == 0x2D || byte == 0x2E
            else { return .unusable }
            if index < 8 { scheme |= UInt64(byte | 0x20) << (8 * UInt64(index)) }
        }
        guard colon <= 8 else { return .unusable }
        if scheme == Self.http || scheme == Self.https { return .web }
        if scheme == Self.mailto { return .mailto }
        return scheme == Self.cid ? .contentID : .unusable
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    private static let http = packed("http"), https = packed("https"), mailto = packed("mailto"), cid = packed("cid")

    private static func packed(_ scheme: StaticString) -> UInt64 {
        var value: UInt64 = 0
        for index in 0..<scheme.utf8CodeUnitCount { value |= UInt64(scheme.utf8Start[index]) << (8 * UInt64(index)) }
        return value
    }
}
