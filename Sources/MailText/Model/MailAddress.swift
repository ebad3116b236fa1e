import Foundation

/// One mailbox from an address header: the display name (decoded) and the address as written.
///
/// MailText does not normalize addresses; identity is the store's job.
public struct MailAddress: Hashable, Sendable, Codable {
    /// The display name, RFC 2047-decoded and unquoted; `nil` when the header had none.
    public var name: String?
    /// The address as written (`local@domain`), without angle brackets.
    public var address: String

    public init(name: String? = nil, address: String) {
        let trimmedName = name.map { WhitespaceTrimming.whitespacesAndNewlines.trimming($0) }
        self.name = trimmedName?.isEmpty == false ? trimmedName : nil
        self.address = address
    }
}
