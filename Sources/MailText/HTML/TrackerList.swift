import CLibXML2

/// One known open-tracking image source.
struct TrackerRule: Sendable {
    /// How the rule matches a URL's host.
    enum HostMatch: Sendable {
        /// The host is this domain or one of its subdomains.
        case domain(String)
        /// The host contains this text (for providers with many numbered hosts).
        case contains(String)
        /// The host's first label is exactly this (`pixel.example.com`).
        case firstLabel(String)
    }

    var host: HostMatch
    /// Text the lowercased path-and-query must contain; `nil` matches every path.
    var pathContains: String?

    func matches(host: String, path: String) -> Bool {
        let hostMatches: Bool
        switch self.host {
        case .domain(let domain): hostMatches = host == domain || host.hasSuffix("." + domain)
        case .contains(let text): hostMatches = host.contains(text)
        case .firstLabel(let label): hostMatches = host.hasPrefix(label + ".")
        }
        guard hostMatches else { return false }
        guard let pathContains else { return true }
        return path.contains(pathContains)
    }
}

/// Known open-tracking pixel sources, as data.
///
/// Removing these images costs the reader nothing (they are invisible) and stops the sender from learning when
/// and where the mail was read, even when remote images are allowed. Hosts and paths are compared as plain
/// lowercased text, never as regular expressions (unescaped regex patterns match far more than meant).
enum TrackerList {
    static let rules: [TrackerRule] = [
        TrackerRule(host: .domain("mailtrack.io")),
        TrackerRule(host: .domain("list-manage.com"), pathContains: "/track/"),  // Mailchimp
        TrackerRule(host: .contains("open.convertkit")),
        TrackerRule(host: .domain("sendgrid.net"), pathContains: "/wf/open"),
        TrackerRule(host: .domain("mandrillapp.com"), pathContains: "/track/"),
        TrackerRule(host: .domain("google-analytics.com")),
        TrackerRule(host: .domain("emltrk.com")),
        TrackerRule(host: .domain("t.yesware.com")),
        TrackerRule(host: .domain("track.hubspot.com")),
        TrackerRule(host: .domain("mixmax.com"), pathContains: "/api/track"),
        TrackerRule(host: .domain("superhuman.com")),
        TrackerRule(host: .domain("mailfoogae.appspot.com")),  // Streak
        TrackerRule(host: .contains("sidekickopen")),  // HubSpot Sales
        TrackerRule(host: .firstLabel("pixel")),
        TrackerRule(host: .firstLabel("open"), pathContains: "open"),
        TrackerRule(host: .firstLabel("open"), pathContains: "track"),
        TrackerRule(host: .firstLabel("click"), pathContains: "open"),
        TrackerRule(host: .firstLabel("click"), pathContains: "track"),
    ]

    /// Whether an absolute image URL is a known tracker.
    static func isTracker(_ url: String) -> Bool {
        guard let (host, path) = URLPolicy.hostAndPath(of: url) else { return false }
        return self.rules.contains { $0.matches(host: host, path: path) }
    }
}

extension TrackerList {
    /// Whether an `<img>` element is a tracking pixel (see `isTrackingPixel(attribute:)`).
    static func isTrackingPixel(_ image: xmlNodePtr) -> Bool {
        self.isTrackingPixel { image.attribute($0) }
    }

    /// Whether an image is a tracking pixel: 1×1 or smaller (attributes or inline CSS), hidden by inline CSS,
    /// or loaded from a known tracker (its `src`, the URL of an older `data-blocked-src` marker, or the host
    /// of an already sanitized image). `attribute` gives an attribute's decoded value by lowercase name.
    static func isTrackingPixel(attribute: (String) -> String?) -> Bool {
        for dimension in ["width", "height"] {
            if let value = attribute(dimension), let pixels = CSSFilter.pixels(value), pixels <= 1 {
                return true
            }
        }
        if let style = attribute("style") {
            if CSSFilter.hidesContent(style) { return true }
            for declaration in CSSFilter.parse(style)
            where declaration.property == "width" || declaration.property == "height" {
                if let pixels = CSSFilter.pixels(declaration.value), pixels <= 1 { return true }
            }
        }
        for sourceAttribute in ["src", "data-blocked-src"] {
            guard let raw = attribute(sourceAttribute) else { continue }
            switch URLPolicy.image(raw) {
            case .remote(let url): if self.isTracker(url) { return true }
            case .inline, .drop: continue
            }
        }
        if let host = attribute("data-blocked-host").flatMap(URLPolicy.validatedHost) {
            return self.rules.contains { $0.pathContains == nil && $0.matches(host: host, path: "") }
        }
        return false
    }
}
