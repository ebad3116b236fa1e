/// How much an attribution pattern proves on its own.
enum AttributionStrength: Sendable {
    /// Starts with a fixed word at the start of a line ("On …", "Am …"): removed even when the quote it
    /// introduced is already gone (end of text).
    case anchored
    /// Only a fixed ending ("… пишет:", "… 写道:"): removed only when a quote block follows.
    case needsQuote
}

/// One localized "On <date>, <name> wrote:" shape, tested on the normalized attribution candidate.
///
/// Patterns are start/middle/end words instead of regular expressions: the date and name in between are free
/// text in every client and locale, and a line-start anchor is what keeps "on " inside prose from matching
/// (lesson 10 in `lessons-from-the-ios-app.md`).
struct AttributionPattern: Sendable {
    /// Must start the candidate (case-sensitive: clients write it capitalized).
    let prefix: String?
    /// Must occur somewhere after the prefix.
    let infix: String?
    /// One of them must end the candidate.
    let suffixes: [String]

    var strength: AttributionStrength { prefix == nil ? .needsQuote : .anchored }

    func matches(_ candidate: String) -> Bool {
        if let prefix, !candidate.hasPrefix(prefix) { return false }
        guard suffixes.contains(where: { candidate.hasSuffix($0) }) else { return false }
        if let infix {
            let searchStart = candidate.dropFirst(prefix?.count ?? 0)
            return searchStart.contains(infix)
        }
        return true
    }
}

/// The attribution lines clients put above a quoted reply, per language.
///
/// Candidates are normalized first (see ``normalize(_:)``): lines joined by one space, non-breaking and
/// ideographic spaces made plain, full-width colons made ASCII, and the space French puts before a colon removed.
enum AttributionPatterns {
    static let all: [AttributionPattern] = [
        // English: "On Mon, 1 Jan 2024 at 10:00, Ann <ann@x.org> wrote:" (Gmail, Apple, Thunderbird).
        AttributionPattern(prefix: "On ", infix: nil, suffixes: ["wrote:"]),
        // English, name only: "Ann Smith wrote:" (older Thunderbird, mailing lists).
        AttributionPattern(prefix: nil, infix: nil, suffixes: [" wrote:"]),
        // German: "Am 01.01.2024 um 10:00 schrieb Ann:".
        AttributionPattern(prefix: "Am ", infix: " schrieb ", suffixes: [":"]),
        // German: "Ann <ann@x.de> schrieb am 01.01.2024:".
        AttributionPattern(prefix: nil, infix: " schrieb am ", suffixes: [":"]),
        // French: "Le lun. 1 janv. 2024 à 10:00, Ann <ann@x.fr> a écrit :".
        AttributionPattern(prefix: "Le ", infix: nil, suffixes: ["a écrit:"]),
        // Spanish: "El lun, 1 ene 2024 a las 10:00, Ann (<ann@x.es>) escribió:".
        AttributionPattern(prefix: "El ", infix: nil, suffixes: ["escribió:"]),
        // Italian: "Il giorno lun 1 gen 2024 alle ore 10:00 Ann <ann@x.it> ha scritto:" and "Il 01/01/24, Ann ha scritto:".
        AttributionPattern(prefix: "Il ", infix: nil, suffixes: ["ha scritto:"]),
        // Dutch: "Op ma 1 jan. 2024 om 10:00 schreef Ann <ann@x.nl>:".
        AttributionPattern(prefix: "Op ", infix: " schreef ", suffixes: [":"]),
        // Dutch: "Ann schreef op 1 januari 2024 10:00:".
        AttributionPattern(prefix: nil, infix: " schreef op ", suffixes: [":"]),
        // Portuguese: "Em seg., 1 de jan. de 2024 às 10:00, Ann <ann@x.br> escreveu:".
        AttributionPattern(prefix: "Em ", infix: nil, suffixes: ["escreveu:"]),
        // Swedish: "Den 1 jan. 2024 kl. 10:00 skrev Ann <ann@x.se>:".
        AttributionPattern(prefix: "Den ", infix: " skrev ", suffixes: [":"]),
        // Swedish: "Ann skrev:".
        AttributionPattern(prefix: nil, infix: nil, suffixes: [" skrev:"]),
        // Polish: "W dniu 1.01.2024 o 10:00, Ann <ann@x.pl> napisał(a):" (also "pisze:").
        AttributionPattern(prefix: "W dniu ", infix: nil, suffixes: ["napisał(a):", "napisał:", "napisała:", "pisze:"]),
        // Polish: "Ann <ann@x.pl> pisze:".
        AttributionPattern(prefix: nil, infix: nil, suffixes: [" pisze:"]),
        // Russian: "1 янв. 2024 г., в 10:00, Анна <anna@x.ru> пишет:" and "Анна написал(а):".
        AttributionPattern(prefix: nil, infix: nil, suffixes: [" пишет:", " написал(а):", " написал:", " написала:"]),
        // Japanese: "2024年1月1日(月) 10:00 Ann <ann@x.jp>のメッセージ:", "Annさんは書きました:", "Annは書きました：".
        AttributionPattern(prefix: nil, infix: nil, suffixes: ["のメッセージ:", "さんは書きました:", "は書きました:"]),
        // Gmail in Japanese, Russian and others: "<date> <name> <email>:" with nothing after the address.
        AttributionPattern(prefix: nil, infix: "@", suffixes: [">:"]),
        // Chinese: "Ann <ann@x.cn> 于2024年1月1日周一 10:00写道：" and "在 2024年1月1日，Ann 写道：".
        AttributionPattern(prefix: nil, infix: nil, suffixes: ["写道:"]),
    ]

    /// Longest normalized candidate tried, in Unicode scalars; longer text is prose, not an attribution.
    static func maximumLength(for strength: AttributionStrength) -> Int {
        switch strength {
        case .anchored: 320
        case .needsQuote: 200
        }
    }

    /// The strongest pattern the lines match as one attribution, or nil.
    ///
    /// The caller passes 1–3 consecutive non-blank lines; the attribution must start at the first and end at
    /// the last (every pattern ends in a colon, which is checked first because it is cheap).
    static func match(_ lines: ArraySlice<Substring>) -> AttributionStrength? {
        guard let last = lines.last?.trimmedTrailing.last, last == ":" || last == "：" else { return nil }
        let candidate = normalize(lines)
        let length = candidate.unicodeScalars.count
        var best: AttributionStrength?
        for pattern in all where pattern.matches(candidate) {
            guard length <= maximumLength(for: pattern.strength) else { continue }
            switch pattern.strength {
            case .anchored: return .anchored
            case .needsQuote: best = .needsQuote
            }
        }
        return best
    }

    /// Joins the lines with single spaces and irons out the spacing differences between clients and locales.
    static func normalize(_ lines: ArraySlice<Substring>) -> String {
        var scalars = String.UnicodeScalarView()
        var pendingSpace = false
        for line in lines {
            if !scalars.isEmpty { pendingSpace = true }
            for scalar in line.unicodeScalars {
                switch scalar {
                case " ", "\t", "\u{00A0}", "\u{202F}", "\u{2009}", "\u{3000}":
                    pendingSpace = !scalars.isEmpty
                case ":", "：":
                    pendingSpace = false  // French "a écrit :" and full-width colons read as "a écrit:"
                    scalars.append(":")
                default:
                    if pendingSpace { scalars.append(" ") }
                    pendingSpace = false
                    scalars.append(scalar)
                }
            }
        }
        return String(scalars)
    }
}
