import EmulatorLauncher
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension EmulatorChild {
    /// Serves `mailbox` (a directory in the demo-mailbox layout) for the account `me`, keeping its
    /// changes and logins in `journal` across restarts when one is given.
    static func demo(mailbox: URL, me: String, journal: URL? = nil) throws(DemoError) -> EmulatorChild {
        do {
            return try EmulatorChild(
                serveArguments: ["--mailbox", mailbox.path, "--me", me]
                    + (journal.map { ["--journal", $0.path] } ?? []))
        } catch {
            switch error {
            case .executableMissing(let path): throw .emulatorMissing(path: path)
            case .exitedBeforeListening(let reason): throw .emulatorFailed(reason: reason)
            }
        }
    }
}

/// Plays the user's browser: opens the consent URL, and follows the emulator's redirect to the loopback
/// address where `LoginFlow` is waiting.
enum BrowserStandIn {
    final class NoRedirects: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
        ) {
            completionHandler(nil)
        }
    }

    static func approve(_ url: URL) async {
        let session = URLSession(configuration: .ephemeral, delegate: NoRedirects(), delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        guard let (_, response) = try? await session.data(from: url),  // failure: LoginFlow times out and says so
            let location = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Location"),
            let callback = URL(string: location)
        else { return }
        _ = try? await session.data(from: callback)  // the loopback receiver answers; LoginFlow gets the code
    }
}
