/// `users.history.list`: the incremental-sync feed.
extension GmailClient {
    /// One page of `history.list` (cost 2).
    /// - Throws: `.giveUp(.historyExpired)` when `startHistoryID` is too old (404) or invalid (400): run a full sync.
    public func listHistoryPage(
        startHistoryID: UInt64, historyTypes: [HistoryType] = HistoryType.allCases, labelID: String? = nil,
        maxResults: Int = 500,
        pageToken: String? = nil, fields: String? = nil
    ) async throws -> ListHistoryResponse {
        var items: [(String, String)] = [("startHistoryId", String(startHistoryID))]
        items += historyTypes.map { ("historyTypes", $0.rawValue) }
        if let labelID { items.append(("labelId", labelID)) }
        items.append(("maxResults", String(min(max(maxResults, 1), 500))))
        if let pageToken { items.append(("pageToken", pageToken)) }
        if let fields { items.append(("fields", fields)) }
        let response = try await execute(Call(endpoint: .listHistory, path: userPath("/history"), query: items))
        return try decode(ListHistoryResponse.self, from: response)
    }

    /// Every history record after `startHistoryID`, across all pages.
    ///
    /// Never truncates, since changes past the cut would be lost: it stops only on a page without
    /// `nextPageToken`. An empty page that still carries a token is followed (Gmail sends such pages); a repeated
    /// token is an error rather than a loop.
    /// - Throws: `.giveUp(.historyExpired)` → full sync; transport and server errors after retries.
    public func listHistory(
        startHistoryID: UInt64, historyTypes: [HistoryType] = HistoryType.allCases, labelID: String? = nil,
        maxResults: Int = 500
    ) async throws -> HistoryListing {
        var listing = HistoryListing(records: [], firstPageHistoryID: nil, finalHistoryID: nil, pageCount: 0)
        var pageToken: String?
        var seenTokens: Set<String> = []
        repeat {
            let page = try await listHistoryPage(
                startHistoryID: startHistoryID, historyTypes: historyTypes, labelID: labelID, maxResults: maxResults,
                pageToken: pageToken)
            listing.pageCount += 1
            listing.records += page.history
            if listing.pageCount == 1 { listing.firstPageHistoryID = page.historyID }
            listing.finalHistoryID = page.historyID ?? listing.finalHistoryID
            pageToken = page.nextPageToken
            if let token = pageToken, !seenTokens.insert(token).inserted {
                throw GmailAPIError.giveUp(.decoding(description: "history.list repeated a page token"))
            }
        } while pageToken != nil
        return listing
    }
}
