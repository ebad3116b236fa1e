import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What chatmail keeps between runs to reach one Gmail account. `description` hides the token.
public struct StoredCredentials: Codable, Sendable, Equatable, CustomStringConvertible {
    public var refreshToken: String
    public var clientID: String
    /// The account's address, learnt from `getProfile` after login.
    public var account: String?
    public var scopes: [String]

    public init(refreshToken: String, clientID: String, account: String?, scopes: [String]) {
        self.refreshToken = refreshToken
        self.clientID = clientID
        self.account = account
        self.scopes = scopes
    }

    public var description: String {
        "StoredCredentials(refreshToken: <redacted>, clientID: \(clientID), account: \(account ?? "nil"), scopes: \(scopes))"
    }
}

/// Reads and writes the credentials file: mode 0600 inside a 0700 directory (it holds tokens), replaced
/// atomically (write a temporary file, fsync, rename) so a crash never leaves half a file.
public struct CredentialStore: Sendable {
    public let directory: URL
    public let fileName: String

    public init(directory: URL, fileName: String = "credentials.json") {
        self.directory = directory
        self.fileName = fileName
    }

    public var fileURL: URL { directory.appendingPathComponent(fileName) }

    /// The saved credentials, or nil when none were saved.
    public func load() throws(CredentialStoreError) -> StoredCredentials? {
        try load(StoredCredentials.self)
    }

    /// The saved secrets of another shape (IMAP passwords), or nil when none were saved.
    public func load<Secrets: Decodable>(_ type: Secrets.Type) throws(CredentialStoreError) -> Secrets? {
        guard FileManager.default.fileExists(atPath: fileURL.path) else { return nil }
        do {
            let data = try Data(contentsOf: fileURL)
            return try JSONDecoder().decode(Secrets.self, from: data)
        } catch {
            throw CredentialStoreError("\(fileURL.path) is unreadable or not valid JSON")
        }
    }

    /// Saves `credentials` (or any other secrets), replacing any earlier file.
    public func save<Secrets: Encodable>(_ credentials: Secrets) throws(CredentialStoreError) {
        try ensureDirectory()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let data: Data
        do { data = try encoder.encode(credentials) } catch { throw CredentialStoreError("cannot encode credentials") }
        let temporary = directory.appendingPathComponent(".\(fileName).\(getpid()).tmp").path
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw CredentialStoreError("cannot create \(temporary): errno \(errno)") }
        // open() applies the umask; fchmod makes the mode exactly 0600 whatever the umask.
        fchmod(fd, 0o600)
        let written = data.withUnsafeBytes { buffer in write(fd, buffer.baseAddress, buffer.count) }
        let synced = fsync(fd)
        close(fd)
        guard written == data.count, synced == 0 else {
            unlink(temporary)
            throw CredentialStoreError("cannot write \(temporary)")
        }
        guard rename(temporary, fileURL.path) == 0 else {
            unlink(temporary)
            throw CredentialStoreError("cannot replace \(fileURL.path): errno \(errno)")
        }
    }

    /// Removes the saved credentials (after `invalid_grant`, or on logout).
    public func delete() throws(CredentialStoreError) {
        guard unlink(fileURL.path) == 0 || errno == ENOENT else {
            throw CredentialStoreError("cannot remove \(fileURL.path): errno \(errno)")
        }
    }

    private func ensureDirectory() throws(CredentialStoreError) {
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw CredentialStoreError("cannot create \(directory.path)")
        }
        // Tighten a directory that already existed with a looser mode.
        guard chmod(directory.path, 0o700) == 0 else {
            throw CredentialStoreError("cannot set mode 0700 on \(directory.path): errno \(errno)")
        }
    }
}
