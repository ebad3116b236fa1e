import Digest
import Foundation
import Testing

@testable import ChatmailStore

@Suite struct EmailNormalizerTests {
    @Test(
        "normalizes addresses for identity",
        arguments: [
            ("John.Doe+news@Gmail.com", "johndoe@gmail.com"),  // dots and +tag are dropped on gmail.com
            ("j.o.h.n.doe@gmail.com", "johndoe@gmail.com"),  // every dot, not just the first
            ("a.b@googlemail.com", "ab@gmail.com"),  // googlemail.com is gmail.com
            ("A.B+x+y@GoogleMail.COM", "ab@gmail.com"),  // cut at the FIRST +
            ("First.Last@example.org", "first.last@example.org"),  // other domains keep their dots
            ("first.last+tag@example.org", "first.last+tag@example.org"),  // and their +tags
            ("  Alice@Example.COM \n", "alice@example.com"),  // trimmed, case folded
            ("<bob@example.com>", "bob@example.com"),  // angle brackets from a raw header
            ("undisclosed-recipients", "undisclosed-recipients"),  // no @: trimmed and lowercased only
        ])
    func normalizes(raw: String, expected: String) {
        #expect(EmailNormalizer.identityKey(for: raw) == expected)
    }

    @Test("addresses that differ only in case are one person")
    func caseInsensitive() {
        #expect(
            EmailNormalizer.identityKey(for: "ALICE@EXAMPLE.COM")
                == EmailNormalizer.identityKey(for: "alice@example.com"))
    }
}

@Suite struct SHA256Tests {
    @Test(
        "matches the FIPS 180-4 example vectors",
        arguments: [
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            (
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
            ),
            (String(repeating: "a", count: 1000), "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3"),
            // Padding boundaries (digests from Python's hashlib): the length field fits, just fits, or spills.
            (String(repeating: "a", count: 55), "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
            (String(repeating: "a", count: 56), "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
            (String(repeating: "a", count: 63), "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"),
            (String(repeating: "a", count: 64), "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
            (String(repeating: "a", count: 119), "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"),
        ])
    func vectors(input: String, digest: String) {
        #expect(SHA256.hexDigest(of: Array(input.utf8)) == digest)
    }
}

@Suite struct ParticipantSetTests {
    @Test("a known participant set has a known hash (computed independently with Python's hashlib)")
    func knownDigest() {
        let set = ParticipantSet(from: alice, to: [me, bob], cc: [], excluding: ["me@example.org"])
        // sha256("p|alice@example.com|bobsmith@gmail.com")
        #expect(set.hash == "34fce0ac9174d61cf6788445013f9a7a85e3ba565db7e4cae260de505f44b842")
    }

    @Test("the hash does not depend on header order or duplicates")
    func orderIndependent() {
        let a = ParticipantSet(from: alice, to: [bob, carol], cc: [], excluding: [])
        let b = ParticipantSet(
            from: carol, to: [alice], cc: [bob, EmailAddress(address: "BOB.SMITH+x@googlemail.com")], excluding: [])
        #expect(a.hash == b.hash)
        #expect(a.members.map(\.normalizedAddress) == ["alice@example.com", "bobsmith@gmail.com", "carol@example.net"])
    }

    @Test("every alias is excluded, not only the primary address")
    func excludesAliases() {
        let aliases: Set = ["me@example.org", "me.work@example.com"]
        let sentFromAlias = ParticipantSet(
            from: EmailAddress(address: "Me.Work@Example.com"), to: [alice], cc: [me], excluding: aliases)
        let received = ParticipantSet(from: alice, to: [me], cc: [], excluding: aliases)
        #expect(sentFromAlias.members.map(\.normalizedAddress) == ["alice@example.com"])
        #expect(sentFromAlias.hash == received.hash)
    }

    @Test("a message only to myself is a note to self")
    func noteToSelf() {
        let set = ParticipantSet(from: me, to: [me], cc: [], excluding: ["me@example.org"])
        #expect(set.isNoteToSelf)
        #expect(set.hash == "0855eb1a0cd2c86d76dc82d5be368b818dac64569ab02bd52680aa7945da497f")  // sha256("p|")
    }

    @Test("the first spelling is kept for display, and a later header may supply the name")
    func keepsSpelling() {
        let set = ParticipantSet(
            from: EmailAddress(address: "Bob.Smith@gmail.com"),
            to: [EmailAddress(address: "bobsmith@gmail.com", name: "Bob")],
            cc: [], excluding: [])
        #expect(set.members.count == 1)
        #expect(set.members[0].address == "Bob.Smith@gmail.com")
        #expect(set.members[0].name == "Bob")
    }
}

@Suite struct ConversationTitleTests {
    @Test("one person gets their full name, or their address when unnamed")
    func onePerson() {
        #expect(ConversationTitle.make(for: [alice]) == "Alice Liddell")
        #expect(ConversationTitle.make(for: [EmailAddress(address: "Zed@Example.com")]) == "Zed@Example.com")
        #expect(
            ConversationTitle.make(for: [EmailAddress(address: "x@example.com", name: "x@example.com")])
                == "x@example.com")
    }

    @Test("several people get first names in a stable order, whatever the input order")
    func group() {
        #expect(ConversationTitle.make(for: [carol, alice, bob]) == "Alice, Bob, Carol")
        #expect(ConversationTitle.make(for: [bob, carol, alice]) == "Alice, Bob, Carol")
        let surnameFirst = EmailAddress(address: "d@example.com", name: "Prince, Diana")
        #expect(ConversationTitle.make(for: [surnameFirst, EmailAddress(address: "eve@example.com")]) == "Diana, eve")
        // A comma inside a list's long description is not "Last, First".
        let list = EmailAddress(
            address: "ubuntu-users@lists.ubuntu.com", name: "Ubuntu user technical support, not for general discussions"
        )
        #expect(
            ConversationTitle.make(for: [list, EmailAddress(address: "c@example.org", name: "Chris Patti")])
                == "Chris, Ubuntu")
        #expect(
            ConversationTitle.firstName(of: EmailAddress(address: "d@x.org", name: "van der Berg, Anna Maria"))
                == "Anna")
        #expect(ConversationTitle.firstName(of: EmailAddress(address: "d@x.org", name: "Berg, Anna Maria")) == "Anna")
        // A company's legal form after a comma is not a first name.
        #expect(ConversationTitle.firstName(of: EmailAddress(address: "d@x.org", name: "Ximian, Inc.")) == "Ximian")
        #expect(ConversationTitle.firstName(of: EmailAddress(address: "d@x.org", name: "Acme, GmbH")) == "Acme")
    }

    @Test("a long group lists four names and counts the rest")
    func longGroup() {
        let people = (0..<7).map { EmailAddress(address: "p\($0)@example.com", name: "Person\($0) X") }
        #expect(ConversationTitle.make(for: people) == "Person0, Person1, Person2, Person3 +3")
    }

    @Test("nobody else is a note to self")
    func empty() {
        #expect(ConversationTitle.make(for: []) == "Note to self")
    }
}
