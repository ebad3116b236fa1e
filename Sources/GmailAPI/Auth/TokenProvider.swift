/// Hands out a valid access token for every request.
public protocol AccessTokenSource: Sendable {
    /// A token valid for at least the next request.
    /// - Throws: `GmailAPIError.logInAgain(.credentialsRevoked)` when the login is dead.
    func accessToken() async throws -> String
    /// Forgets `token` after a 401, so the next call refreshes (unless someone already did).
    func invalidate(_ token: String) async
}

/// A fixed token, for tests and for short-lived tools that were handed a token.
public struct StaticTokenSource: AccessTokenSource {
    private let token: String
    public init(token: String) { self.token = token }
    public func accessToken() async throws -> String { token }
    public func invalidate(_ token: String) async {}
}

/// Keeps the access token of one account fresh.
///
/// Refreshes `refreshMargin` before expiry so requests rarely meet a 401, and after `invalidate(_:)` on
/// the 401 path. Refreshes are single-flight: concurrent callers wait for the one refresh in progress
/// instead of each spending a token-endpoint call.
public actor TokenProvider: AccessTokenSource {
    private let client: OAuthTokenClient
    private let sleeper: any Sleeper
    private let refreshMargin: Duration
    private var refreshToken: String
    private var current: (token: String, expiresAt: Duration)?
    private var inFlight: Task<TokenGrant, any Error>?
    /// How many refreshes reached the token endpoint (tests check single-flight with it).
    public private(set) var refreshCount = 0

    public init(
        refreshToken: String, client: OAuthTokenClient, sleeper: any Sleeper = ContinuousSleeper(),
        refreshMargin: Duration = .seconds(60)
    ) {
        self.refreshToken = refreshToken
        self.client = client
        self.sleeper = sleeper
        self.refreshMargin = refreshMargin
    }

    /// Seeds the provider with a token already obtained (e.g. right after the code exchange).
    public func seed(_ grant: TokenGrant) {
        accept(grant)
    }

    public func accessToken() async throws -> String {
        if let current, sleeper.now() < current.expiresAt - refreshMargin {
            return current.token
        }
        let task: Task<TokenGrant, any Error>
        if let inFlight {
            task = inFlight
        } else {
            let client = self.client
            let refreshToken = self.refreshToken
            refreshCount += 1
            task = Task { try await client.refresh(refreshToken: refreshToken) }
            inFlight = task
        }
        do {
            let grant = try await task.value
            if inFlight == task {
                inFlight = nil
                accept(grant)
            }
            return grant.accessToken
        } catch {
            if inFlight == task { inFlight = nil }
            throw error
        }
    }

    public func invalidate(_ token: String) {
        if current?.token == token { current = nil }
    }

    private func accept(_ grant: TokenGrant) {
        current = (grant.accessToken, sleeper.now() + .seconds(grant.expiresIn))
        if let newRefresh = grant.refreshToken { refreshToken = newRefresh }
    }
}
