/// Someone as the renderers show them: the address as written, the display name, and the key that
/// tells people apart.
public struct Person: Sendable, Equatable {
    /// The address as written, for example `John.Doe@Gmail.com`.
    public var address: String
    /// The display name; `nil` when there is none.
    public var name: String?
    /// Equal for every spelling of one mailbox: runs of messages and colours follow it, so one person
    /// keeps one colour however their address was written.
    public var key: String

    public init(address: String, name: String? = nil, key: String) {
        self.address = address
        self.name = name
        self.key = key
    }
}
