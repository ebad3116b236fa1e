/// Mailbox-level reads: profile, labels, send-as aliases.
extension GmailClient {
    /// `users.getProfile` (cost 1): the address and the mailbox's current history id.
    public func getProfile() async throws -> Profile {
        try decode(Profile.self, from: try await execute(Call(endpoint: .getProfile, path: userPath("/profile"))))
    }

    /// `users.labels.list` (cost 1): every label, system and user (no paging).
    public func listLabels() async throws -> [Label] {
        try decode(
            ListLabelsResponse.self, from: try await execute(Call(endpoint: .listLabels, path: userPath("/labels")))
        ).labels
    }

    /// `users.settings.sendAs.list`: the primary address and aliases, needed before computing any
    /// participant hash: a missed alias splits a chat in two.
    public func listSendAs() async throws -> [SendAs] {
        try decode(
            ListSendAsResponse.self,
            from: try await execute(Call(endpoint: .listSendAs, path: userPath("/settings/sendAs")))
        ).sendAs
    }
}
