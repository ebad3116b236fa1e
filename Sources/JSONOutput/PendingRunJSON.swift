/// `pending run --json`: the counts of the run, and why Gmail could not be reached (`null` when it
/// could). The error has the shape of every `--json` failure, and the exit code is the same.
public struct PendingRunJSON: Encodable, Sendable {
    public var sent: Int
    public var failed: Int
    public var abandoned: Int
    /// Not due yet, waiting behind a failed action on the same messages, or not tried because Gmail
    /// could not be reached.
    public var waiting: Int
    public var rechecked: Int
    public var error: JSONError?

    public init(sent: Int, failed: Int, abandoned: Int, waiting: Int, rechecked: Int, error: JSONError?) {
        self.sent = sent
        self.failed = failed
        self.abandoned = abandoned
        self.waiting = waiting
        self.rechecked = rechecked
        self.error = error
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sent, forKey: .sent)
        try container.encode(failed, forKey: .failed)
        try container.encode(abandoned, forKey: .abandoned)
        try container.encode(waiting, forKey: .waiting)
        try container.encode(rechecked, forKey: .rechecked)
        try container.encode(error, forKey: .error)  // null, not absent
    }

    enum CodingKeys: String, CodingKey { case sent, failed, abandoned, waiting, rechecked, error }
}
