import Foundation
import IMAPProtocol

/// Logs a connection in with the strongest method the server offers for the credentials given.
///
/// A password goes with SASL PLAIN when `AUTH=PLAIN` is advertised, else with LOGIN unless the server
/// says `LOGINDISABLED`. A token goes with SASL XOAUTH2. SASL's initial response rides on the command
/// when the server has SASL-IR, and follows the first `+` otherwise.
struct IMAPAuthenticator {
    let connection: IMAPConnection

    func authenticate(_ authentication: IMAPAuthentication) async throws(IMAPClientError) {
        if connection.capabilities.isEmpty { try await connection.refreshCapabilities() }
        let response: IMAPCommandResponse
        var commandName = "AUTHENTICATE"
        switch authentication {
        case .password(let user, let password):
            if connection.has("AUTH=PLAIN") {
                response = try await sasl("PLAIN", Array("\0\(user)\0\(password)".utf8))
            } else if connection.has("LOGINDISABLED") {
                throw .missingCapability("AUTH=PLAIN")
            } else {
                let login = IMAPCommand.login(user: user, password: password)
                commandName = "LOGIN"
                response = try await connection.executeUnchecked(login, name: "LOGIN", kind: .ordinary)
            }
        case .xoauth2(let user, let token):
            guard connection.has("AUTH=XOAUTH2") else { throw .missingCapability("AUTH=XOAUTH2") }
            response = try await sasl("XOAUTH2", Array("user=\(user)\u{1}auth=Bearer \(token)\u{1}\u{1}".utf8))
        }
        let completion = response.completion
        switch completion.status {
        case .ok: break
        case .no: throw .authenticationFailed(serverText: completion.text)
        default:
            throw .commandFailed(command: commandName, status: completion.status.rawValue, serverText: completion.text)
        }
        // Capabilities change with authentication; the OK usually carries the new list.
        if !connection.absorbCapabilities(from: response) { try await connection.refreshCapabilities() }
    }

    private func sasl(_ mechanism: String, _ initialResponse: [UInt8]) async throws(IMAPClientError)
        -> IMAPCommandResponse
    {
        if connection.has("SASL-IR") {
            let command = IMAPCommand.authenticate(mechanism: mechanism, initialResponse: initialResponse)
            return try await connection.executeUnchecked(command, name: "AUTHENTICATE", kind: .authenticate)
        }
        let encoded = Array(Data(initialResponse).base64EncodedString().utf8) + Array("\r\n".utf8)
        return try await connection.executeUnchecked(
            .authenticate(mechanism: mechanism, initialResponse: nil), name: "AUTHENTICATE", kind: .authenticate,
            extraParts: [encoded])
    }
}
