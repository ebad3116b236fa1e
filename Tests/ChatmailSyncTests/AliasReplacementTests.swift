import ChatmailStore
import ChatmailSync
import GmailAPI
import Testing

/// The aliases `login` and every sync store from Gmail's sendAs list, through one function.
@Suite struct AliasReplacementTests {
    @Test("the own addresses of the sendAs list replace the aliases; others are left out; an empty list keeps them")
    func replaces() async throws {
        try await withImportStore { store, _, account in
            let own = try await store.write { tx in
                try tx.replaceAliases(
                    withOwnAddressesIn: [
                        SendAs(sendAsEmail: "me@example.org", displayName: "Me", isPrimary: true),
                        SendAs(sendAsEmail: "work@example.com", treatAsAlias: true),
                        SendAs(sendAsEmail: "someone.else@example.net", treatAsAlias: false),
                    ], for: account)
            }
            #expect(own.map(\.sendAsEmail) == ["me@example.org", "work@example.com"])
            #expect(try store.aliases(of: account) == ["me@example.org", "work@example.com"])
            let addresses = try await store.write { tx in try tx.ownAddresses(of: account) }
            #expect(
                addresses == [
                    EmailAddress(address: "me@example.org", name: "Me"), EmailAddress(address: "work@example.com"),
                ])

            // A restricted token lists no address: what is known stays.
            let none = try await store.write { tx in
                try tx.replaceAliases(
                    withOwnAddressesIn: [SendAs(sendAsEmail: "x@example.net")], for: account)
            }
            #expect(none.isEmpty)
            #expect(try store.aliases(of: account) == ["me@example.org", "work@example.com"])
        }
    }
}
