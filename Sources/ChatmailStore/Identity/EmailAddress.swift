/// An address as it appeared in a header: the original spelling and the display name, if any.
///
/// This is the display form. Identity always goes through ``EmailNormalizer/identityKey(for:)``.
public struct EmailAddress: Hashable, Sendable, Codable {
    /// The address as written, for example `John.Doe@Gmail.com`.
    public var address: String
    /// The display name, for example `John Doe`; `nil` when the header had none.
    public var name: String?

    public init(address: String, name: String? = nil) {
        self.address = address
        let trimmed = name.map { String(Substring($0).trimmingWhitespace()) }
        self.name = trimmed?.isEmpty == false ? trimmed : nil
    }

    /// The identity key of ``address``.
    public var normalizedAddress: String { EmailNormalizer.identityKey(for: address) }
}
