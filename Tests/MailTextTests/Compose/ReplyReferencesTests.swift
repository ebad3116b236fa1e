import MailText
import Testing

@Suite struct ReplyReferencesTests {
    @Test("A reply's References are the parent's plus the parent's id")
    func appendsParent() {
        let ids = ReplyReferences.make(parentReferences: ["<a@x>", "<b@x>"], parentMessageID: "<c@x>")
        #expect(ids == ["<a@x>", "<b@x>", "<c@x>"])
    }

    @Test("Ids given without brackets are written with them")
    func bracketsIds() {
        let ids = ReplyReferences.make(parentReferences: ["a@x"], parentMessageID: " c@x ")
        #expect(ids == ["<a@x>", "<c@x>"])
    }

    @Test("A parent without References contributes its single In-Reply-To id")
    func fallsBackToInReplyTo() {
        #expect(
            ReplyReferences.make(parentReferences: [], parentInReplyTo: ["<a@x>"], parentMessageID: "<b@x>")
                == ["<a@x>", "<b@x>"])
        // Several In-Reply-To ids say nothing certain about the thread (RFC 5322 §3.6.4).
        #expect(
            ReplyReferences.make(parentReferences: [], parentInReplyTo: ["<a@x>", "<z@x>"], parentMessageID: "<b@x>")
                == ["<b@x>"])
        // References win over In-Reply-To.
        #expect(
            ReplyReferences.make(parentReferences: ["<r@x>"], parentInReplyTo: ["<a@x>"], parentMessageID: "<b@x>")
                == ["<r@x>", "<b@x>"])
    }

    @Test("Repeated ids appear once and the parent's id comes last")
    func deduplicates() {
        let ids = ReplyReferences.make(
            parentReferences: ["<a@x>", "<b@x>", "<a@x>", "<c@x>", "<b@x>"], parentMessageID: "<a@x>")
        #expect(ids == ["<b@x>", "<c@x>", "<a@x>"])
    }

    @Test("Long chains keep the root and the newest ids, at most ten")
    func caps() {
        let parent = (1...30).map { "<m\($0)@x>" }
        let ids = ReplyReferences.make(parentReferences: parent, parentMessageID: "<m31@x>")
        #expect(ids.count == 10)
        #expect(ids == ["<m1@x>"] + (23...31).map { "<m\($0)@x>" })
        let short = ReplyReferences.make(parentReferences: parent, parentMessageID: "<m31@x>", limit: 3)
        #expect(short == ["<m1@x>", "<m30@x>", "<m31@x>"])
    }

    @Test("Unusable ids are dropped")
    func dropsUnusable() {
        let ids = ReplyReferences.make(
            parentReferences: ["<a@x>", "", "<b c@x>", "<line\r\nbreak@x>", "<>"], parentMessageID: "<p@x>")
        #expect(ids == ["<a@x>", "<p@x>"])
        #expect(ReplyReferences.make(parentReferences: ["<a@x>"], parentMessageID: "bad id") == ["<a@x>"])
    }

    @Test(
        "Parses ids out of real References and In-Reply-To values",
        arguments: [
            ("<a@x> <b@x>", ["<a@x>", "<b@x>"]),
            ("<a@x>\r\n\t<b@x>", ["<a@x>", "<b@x>"]),
            ("<a@x>,<b@x>", ["<a@x>", "<b@x>"]),
            ("\"Ann's message of Monday\" <a@x> (comment)", ["<a@x>"]),
            ("<a@x> junk <b@x", ["<a@x>"]),
            ("<broken <a@x>", ["<a@x>"]),
            ("<a b@x> <c@x>", ["<c@x>"]),
            ("a@x", ["<a@x>"]),
            ("no ids here", []),
            ("", []),
        ])
    func parses(value: String, expected: [String]) {
        #expect(ReplyReferences.parse(value) == expected)
        #expect(ReplyReferences.parse(Array(value.utf8)) == expected)
    }
}

@Suite struct MessageIDGeneratorTests {
    @Test("An id is 160 random bits in base32 at the From address's domain")
    func shape() throws {
        var generator = SplitMix64(seed: 7)
        let id = MessageIDGenerator.make(
            for: MailAddress(name: "Ann", address: "Ann.Smith@Example.ORG"), using: &generator)
        let match = try #require(id.wholeMatch(of: /<([a-z2-7]{32})@example\.org>/))
        #expect(!match.1.contains("ann"))
        #expect(ReplyReferences.normalized(id) == id)
    }

    @Test("The same generator state gives the same id, and successive ids differ")
    func deterministic() {
        var first = SplitMix64(seed: 42)
        var second = SplitMix64(seed: 42)
        let from = MailAddress(address: "ann@example.org")
        let a = MessageIDGenerator.make(for: from, using: &first)
        #expect(a == MessageIDGenerator.make(for: from, using: &second))
        #expect(a != MessageIDGenerator.make(for: from, using: &first))
        #expect(MessageIDGenerator.make(for: from) != MessageIDGenerator.make(for: from))
    }

    @Test(
        "Addresses without a usable domain get the reserved fallback domain",
        arguments: ["nobody", "ann@", "ann@bücher.example", "ann@[192.0.2.1]", "ann@x..org", "ann@-x.org ann"])
    func fallback(address: String) {
        var generator = SplitMix64(seed: 1)
        let id = MessageIDGenerator.make(for: MailAddress(address: address), using: &generator)
        #expect(id.hasSuffix("@\(MessageIDGenerator.fallbackDomain)>"))
    }
}
