import Testing

@testable import ChatmailStore

@Suite struct FuzzyNameTests {
    @Test(
        "edit distance counts insertions, deletions, substitutions and neighbour swaps",
        arguments: [
            ("john", "john", 0), ("jonh", "john", 1), ("jon", "john", 1), ("johnn", "john", 1), ("joan", "john", 1),
            ("kitten", "sitting", 3), ("", "abc", 3), ("liddell", "lidell", 1),
        ])
    func distance(a: String, b: String, expected: Int) {
        #expect(FuzzyName.editDistance(Array(a), Array(b), limit: 5) == expected)
    }

    @Test("a query matches inside a name or address, or within a typo or two, ignoring accents")
    func matches() {
        let person = PersonDirectory.Person(
            key: "jose.garcia@example.es", address: "Jose.Garcia@example.es", name: "José García",
            conversation: ConversationID(rawValue: 1))
        for query in ["garcia", "jose garcia", "garica", "jsoe", "garcia@exa", "GARCÍA"] {
            #expect(FuzzyName.matches(FuzzyName.fold(query), person: person), "\(query)")
        }
        for query in ["garxyz", "pedro", "jo"] {
            #expect(!FuzzyName.matches(FuzzyName.fold(query), person: person), "\(query)")
        }
    }
}
