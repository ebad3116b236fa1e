/// Evidence that a message is a post to a discussion list that sends no `List-Post` header: it was written
/// to the list's own address, or it replies within the list.
///
/// A newsletter is addressed to each subscriber and replies to nothing, so either fact marks people talking.
enum ListDiscussion {
    /// The reasons found, empty when the message did not come through a list or shows neither fact.
    static func evidence(in headers: HeaderFields) -> [String] {
        let listAddresses = addresses(of: headers)
        let isListMail = !listAddresses.isEmpty || listHeaderNames.contains(where: headers.contains)
        guard isListMail else { return [] }
        var evidence: [String] = []
        let recipients = (headers.all("To") + headers.all("Cc")).flatMap(AddressListParser.parse)
        if let written = recipients.lazy.map({ $0.address.lowercased() }).first(where: listAddresses.contains) {
            evidence.append("written to the list (\(written))")
        }
        if let reply = ["In-Reply-To", "References"].first(where: { headers.first($0).map(holdsMessageID) ?? false }) {
            evidence.append("reply within a mailing list (\(reply))")
        }
        return evidence
    }

    /// Headers only list servers add.
    static let listHeaderNames = ["List-Id", "X-Mailing-List", "Mailing-List", "X-BeenThere"]

    /// The list's own address as its headers give it, lowercased: the `List-Id` with its first dot made an
    /// `@` (`dev.lists.example.org` is `dev@lists.example.org` on Mailman, vger, ezmlm and Google Groups),
    /// the `X-Mailing-List` / `X-BeenThere` address, and the list behind an owner or bounce `Sender`
    /// (`owner-dev@x`, `dev-bounces@x`).
    static func addresses(of headers: HeaderFields) -> Set<String> {
        var addresses: Set<String> = []
        if let id = headers.first("List-Id").flatMap(ListHeaders.mailingList)?.id, !id.contains("@"),
            let dot = id.firstIndex(of: ".")
        {
            addresses.insert(String(id[..<dot]) + "@" + id[id.index(after: dot)...])
        }
        for name in ["X-Mailing-List", "X-BeenThere"] {
            for mailbox in headers.all(name).flatMap(AddressListParser.parse) {
                addresses.insert(mailbox.address.lowercased())
            }
        }
        if let sender = headers.first("Sender").flatMap({ AddressListParser.parse($0).first })?.address.lowercased(),
            let list = listBehind(owner: sender)
        {
            addresses.insert(list)
        }
        return addresses
    }

    /// `owner-dev@x`, `dev-owner@x`, `dev-bounce(s)@x` and `dev-request@x` stand for `dev@x`.
    static func listBehind(owner address: String) -> String? {
        guard let at = address.lastIndex(of: "@") else { return nil }
        let local = address[..<at]
        let domain = String(address[at...])
        if local.hasPrefix("owner-"), local.count > 6 { return String(local.dropFirst(6)) + domain }
        for suffix in ["-owner", "-bounce", "-bounces", "-request"]
        where local.hasSuffix(suffix) && local.count > suffix.count {
            return String(local.dropLast(suffix.count)) + domain
        }
        return nil
    }

    /// `true` when the value holds a `<local@domain>` message id.
    private static func holdsMessageID(_ value: [UInt8]) -> Bool {
        guard let open = value.firstIndex(of: UInt8(ascii: "<")) else { return false }
        return value[open...].contains(UInt8(ascii: "@")) && value[open...].contains(UInt8(ascii: ">"))
    }
}
