import ChatmailSync

/// `pending run --json`: the counts of the run, and why Gmail could not be reached (`null` when it
/// could). The error has the shape of every `--json` failure, and the exit code is the same.
struct PendingRunJSON: Encodable {
    var sent: Int
    var failed: Int
    var abandoned: Int
    /// Not due yet, waiting behind a failed action on the same messages, or not tried because Gmail
    /// could not be reached.
    var waiting: Int
    var rechecked: Int
    var error: JSONError?

    init(_ summary: PendingActionSender.Summary) {
        sent = summary.sent
        failed = summary.failed
        abandoned = summary.abandoned
        waiting = summary.waiting
        rechecked = summary.rechecked
        error = summary.unreachable.map { JSONError($0) }
    }

    func encode(to encoder: any Encoder) throws {
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
