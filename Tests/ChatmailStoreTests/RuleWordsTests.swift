import Foundation
import Testing

@testable import ChatmailStore

/// Whole-word matching of subject and text rules, in the scripts people write mail in.
@Suite struct RuleWordsTests {
    /// Whether a subject pattern, normalized as `rules add` stores it, matches `text`.
    static func matches(_ pattern: String, _ text: String) throws -> Bool {
        RuleWords(text).contains(try RulePattern.normalize(pattern, for: .subject))
    }

    @Test("text folds into lowercased words joined by single spaces")
    func folding() {
        #expect(RuleWords("  Hello,   World!! ").joined == "hello world")
        #expect(RuleWords("e-mail: NEWS_letter #42").joined == "e mail news letter 42")
        #expect(RuleWords("").joined == "")
        #expect(RuleWords("?! -- ...").joined == "")
    }

    @Test(
        "a pattern matches whole words only",
        arguments: [
            ("cat", "The cat sat", true),
            ("cat", "Cat", true),
            ("cat", "cat.", true),
            ("cat", "(cat)", true),
            ("cat", "concatenate", false),
            ("cat", "cats and dogs", false),
            ("cat", "bobcat", false),
            ("sale", "Wholesale prices", false),
            ("42", "Order #42 shipped", true),
            ("42", "Order 420 shipped", false),
        ])
    func wholeWords(pattern: String, text: String, expected: Bool) throws {
        #expect(try Self.matches(pattern, text) == expected)
    }

    @Test("case is ignored on both sides")
    func caseInsensitive() throws {
        #expect(try Self.matches("SALE", "big sale today"))
        #expect(try Self.matches("sale", "BIG SALE TODAY"))
        #expect(try Self.matches("sAlE", "Big Sale"))
        #expect(try Self.matches("école", "L'ÉCOLE est fermée"))
    }

    @Test("a phrase matches its words in a row, whatever punctuation or spacing lies between")
    func phrases() throws {
        #expect(try Self.matches("limited time offer", "A Limited-Time  Offer!"))
        #expect(try Self.matches("limited time offer", "limited\ntime\toffer"))
        #expect(try Self.matches("Limited, time: offer", "limited time offer ends"))
        #expect(!(try Self.matches("limited time offer", "a limited special time offer")))
        #expect(!(try Self.matches("limited time offer", "offer time limited")))
        #expect(!(try Self.matches("time offer", "limited timeoffer")))
        // The phrase's first and last words are whole words too.
        #expect(!(try Self.matches("big sale", "bigger sale")))
        #expect(!(try Self.matches("big sale", "big sales")))
    }

    @Test("punctuation inside a word splits it, the same way in the pattern and the text")
    func punctuationSplits() throws {
        #expect(try Self.matches("don't", "I don't know"))
        #expect(try Self.matches("e-mail", "send an E-Mail"))
        #expect(try Self.matches("e-mail", "send an e mail"))
        #expect(try Self.matches("mail", "send an e-mail"))
        #expect(!(try Self.matches("e-mail", "send an email")))
    }

    @Test("Chinese, Japanese and Thai match by characters in a row, without word boundaries")
    func unspacedScripts() throws {
        #expect(try Self.matches("東京", "我在東京工作"))
        #expect(!(try Self.matches("東京", "京東")))
        #expect(!(try Self.matches("東京", "東の京")))
        #expect(try Self.matches("お知らせ", "Amazonからのお知らせ"))
        #expect(try Self.matches("セール", "【重要】タイムセール開催中"))
        #expect(try Self.matches("ลดราคา", "โปรโมชั่นลดราคาพิเศษ"))
        #expect(!(try Self.matches("ลดราคา", "ลดพิเศษราคา")))
        // A Latin word next to those scripts is still a word of its own.
        #expect(try Self.matches("amazon", "Amazonからのお知らせ"))
        #expect(try Self.matches("sale", "今だけSALE開催"))
        #expect(!(try Self.matches("sal", "今だけSALE開催")))
    }

    @Test("an accent written as one character or as a letter and a combining mark is the same")
    func canonicalEquivalence() throws {
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        #expect(try Self.matches(composed, "un \(decomposed) noir"))
        #expect(try Self.matches(decomposed, "un \(composed) noir"))
        #expect(try Self.matches("CAF\u{C9}", "un \(decomposed) noir"))
        #expect(RuleWords(decomposed).joined == RuleWords(composed).joined)
        // Kana with a combining voiced mark is the precomposed kana.
        #expect(try Self.matches("\u{304C}", "\u{304B}\u{3099}"))
        // Accents are not ignored: they are part of the word.
        #expect(!(try Self.matches("cafe", "un café noir")))
        #expect(!(try Self.matches("café", "un cafe noir")))
    }

    @Test("Korean written as jamo matches the same syllables precomposed")
    func hangulJamo() throws {
        let syllables = "\u{D55C}\u{AD6D}"  // 한국
        let jamo = "\u{1112}\u{1161}\u{11AB}\u{1100}\u{116E}\u{11A8}"
        #expect(try Self.matches(syllables, "\(jamo) 뉴스"))
        #expect(try Self.matches(jamo, "\(syllables) 뉴스"))
        #expect(!(try Self.matches(syllables, "\(jamo)어 뉴스")))
    }

    @Test("Cyrillic, Greek, Arabic and Devanagari words are whole words in any case")
    func otherScripts() throws {
        #expect(try Self.matches("привет", "Привет, мир!"))
        #expect(try Self.matches("ПРИВЕТ", "ну привет"))
        #expect(!(try Self.matches("при", "Привет, мир!")))
        #expect(try Self.matches("καλημέρα", "ΚΑΛΗΜΈΡΑ κόσμε"))
        #expect(!(try Self.matches("καλη", "καλημέρα")))
        #expect(try Self.matches("مرحبا", "مرحبا بالعالم"))
        #expect(!(try Self.matches("مرحبا", "مرحبابالعالم")))
        // Vowel signs and the virama are parts of a Devanagari word, not boundaries.
        #expect(try Self.matches("नमस्ते", "नमस्ते दुनिया"))
        #expect(!(try Self.matches("नम", "नमस्ते दुनिया")))
        #expect(!(try Self.matches("स्ते", "नमस्ते दुनिया")))
    }

    @Test("Turkish capital dotted I and the Kelvin sign are i and k in any case")
    func letterLikeCapitals() throws {
        #expect(try Self.matches("istanbul", "İSTANBUL'dan selamlar"))
        #expect(try Self.matches("İstanbul", "istanbul"))
        #expect(try Self.matches("istanbul", "I\u{307}STANBUL"))
        #expect(try Self.matches("kilo", "\u{212A}ILO"))
    }

    @Test("Greek final sigma is the same letter as sigma, so capitals match")
    func greekFinalSigma() throws {
        #expect(try Self.matches("οδός", "ΟΔΌΣ"))
        #expect(try Self.matches("ΟΔΌΣ", "η οδός"))
    }

    @Test("patterns are normalized for their field")
    func normalizing() throws {
        #expect(try RulePattern.normalize(" Bob.Smith+x@GoogleMail.com ", for: .sender) == "bobsmith@gmail.com")
        #expect(try RulePattern.normalize("<Alice@Example.COM>", for: .sender) == "alice@example.com")
        #expect(try RulePattern.normalize("First.Last@Example.org", for: .sender) == "first.last@example.org")
        #expect(try RulePattern.normalize("@Example.COM", for: .domain) == "example.com")
        #expect(try RulePattern.normalize(" mail.Example.com ", for: .domain) == "mail.example.com")
        #expect(try RulePattern.normalize("@GoogleMail.com", for: .domain) == "gmail.com")
        #expect(try RulePattern.normalize("  Big   SALE!! ", for: .subject) == "big sale")
        #expect(
            try RulePattern.normalize("Caf\u{E9}", for: .text) == "cafe\u{301}".precomposedStringWithCanonicalMapping)
        #expect(try RulePattern.normalize("東京", for: .text) == "東 京")
    }

    @Test(
        "patterns that cannot match anything throw the error of their field",
        arguments: [
            (Rule.Field.sender, "bob", RuleError.notAnAddress("bob")),
            (.sender, "@example.com", .notAnAddress("@example.com")),
            (.sender, "bob@localhost", .notAnAddress("bob@localhost")),
            (.sender, "bob smith@example.com", .notAnAddress("bob smith@example.com")),
            (.sender, "bob\u{1B}[31m@example.com", .notAnAddress("bob\u{1B}[31m@example.com")),
            (.sender, "", .notAnAddress("")),
            (.domain, "example", .notADomain("example")),
            (.domain, "ex ample.com", .notADomain("ex ample.com")),
            (.domain, "-bad.example.com", .notADomain("-bad.example.com")),
            (.domain, "example..com", .notADomain("example..com")),
            (.domain, "*.example.com", .notADomain("*.example.com")),
            (.domain, "bob@example.com", .notADomain("bob@example.com")),
            (.subject, "!!!", .noWords("!!!")),
            (.subject, "   ", .noWords("   ")),
            (.text, "-- ... --", .noWords("-- ... --")),
        ])
    func invalidPatterns(field: Rule.Field, pattern: String, error: RuleError) {
        #expect(throws: error) { try RulePattern.normalize(pattern, for: field) }
        #expect(throws: error) { try Rule.Draft(action: .deny, field: field, pattern: pattern) }
    }

    @Test("only deny rules archive")
    func archiveNeedsDeny() throws {
        #expect(throws: RuleError.archiveNeedsDeny) {
            try Rule.Draft(action: .mute, field: .domain, pattern: "example.com", archives: true)
        }
        #expect(throws: RuleError.archiveNeedsDeny) {
            try Rule.Draft(action: .allow, field: .domain, pattern: "example.com", archives: true)
        }
        let draft = try Rule.Draft(action: .deny, field: .domain, pattern: "Example.com", archives: true)
        #expect(draft.archives && draft.pattern == "example.com")
    }

    @Test("error messages quote the pattern with control characters escaped")
    func errorMessages() {
        let message = RuleError.noWords("a\u{7}\"b\"").localizedDescription
        #expect(message.contains(#""a\u{7}\"b\"""#))
        #expect(RuleError.unknownRule(RuleID(rawValue: 9)).localizedDescription.contains("no rule 9"))
        let long = RuleError.notADomain(String(repeating: "x", count: 100)).localizedDescription
        #expect(long.contains(String(repeating: "x", count: 80) + "…\""))
        #expect(!long.contains(String(repeating: "x", count: 81)))
    }

    @Test(
        "a domain covers itself and its subdomains, not names that merely end alike",
        arguments: [
            ("example.com", true),
            ("mail.example.com", true),
            ("a.b.example.com", true),
            ("notexample.com", false),
            ("example.co", false),
            ("example.com.evil.net", false),
            ("com", false),
        ])
    func domainCoverage(domain: String, expected: Bool) {
        #expect(RulePattern.domain(Substring(domain), isCoveredBy: "example.com") == expected)
    }
}
