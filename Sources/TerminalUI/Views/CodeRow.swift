/// One one-time code as the codes table shows it.
public struct CodeRow: Sendable, Equatable {
    /// As the service wrote it (`123-456`).
    public var code: String
    /// Who the code is from, as a person would name the service; `nil` when it cannot be told.
    public var service: String?
    public var sender: Person
    public var receivedAtMs: Int64

    public init(code: String, service: String?, sender: Person, receivedAtMs: Int64) {
        self.code = code
        self.service = service
        self.sender = sender
        self.receivedAtMs = receivedAtMs
    }
}
