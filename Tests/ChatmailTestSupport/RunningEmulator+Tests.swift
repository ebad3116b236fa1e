import Foundation
import GmailEmulator

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Starts an emulator on port 0 with `configuration`, runs `body` with it and a session that does not
/// follow redirects, and always shuts both down, also when `body` throws.
public func withRunningEmulator(
    _ configuration: EmulatorConfiguration, _ body: (RunningEmulator, URLSession) async throws -> Void
) async throws {
    let running = try await EmulatorServer.start(configuration)
    let session = URLSession(configuration: .ephemeral, delegate: NoRedirects(), delegateQueue: nil)
    do {
        try await body(running, session)
    } catch {
        session.invalidateAndCancel()
        await running.shutdown()
        throw error
    }
    session.invalidateAndCancel()
    await running.shutdown()
}
