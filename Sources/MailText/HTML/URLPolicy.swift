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
        let valid = candidate.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") }
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
        guard let range = url.range(of: "://") else { return nil }
        let rest = url[range.upperBound...]
        let hostEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        var authority = rest[..<hostEnd]
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        if let colon = authority.lastIndex(of: ":") { authority = authority[..<colon] }
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
            ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-")
        }
        guard !host.isEmpty, host.utf8.count <= 253, host.utf8.allSatisfy(isHostByte) else { return nil }
        return host
    }
}
