import ChatmailDemoMailbox
import EmulatorLauncher
import Foundation

/// A chatmail home whose Gmail is the local emulator serving the demo mailbox.
///
/// The demo keeps one home across runs, so that everything a newcomer tries after it (`show`,
/// `archive`, `sync`, `pending run`) works on the same mailbox. The home is marked by `demo.json`,
/// which names the mailbox and its owner. The emulator only runs while a command needs it: each
/// command that talks to Gmail starts it on a free port and stops it afterwards, and its journal in
/// the home keeps the mailbox's changes and the demo's login from one start to the next.
struct DemoHome: Codable, Equatable {
    /// The directory of `.eml` files (with `labels.json` and `ME`) that the emulator serves, or
    /// ``builtinMailbox`` for the one shipped with chatmail.
    var mailbox: String
    /// The mailbox owner's address: the account chatmail logs in as.
    var me: String

    static let markerName = "demo.json"
    /// Stands for the mailbox shipped beside the binary, found afresh on every run, so the home keeps
    /// working when chatmail is installed elsewhere or rebuilt. (A path never reads like this: paths
    /// are stored absolute.)
    static let builtinMailbox = "builtin"
    static let journalName = "demo-gmail.jsonl"

    /// The demo's home when neither `--home` nor `$CHATMAIL_HOME` names one: `demo` inside the data
    /// directory, so that it never mixes with a real account's home.
    static func defaultLocation(environment: [String: String]) -> URL {
        var withoutHome = environment
        withoutHome["CHATMAIL_HOME"] = nil
        return AppEnvironment.resolveHome(option: nil, environment: withoutHome).appendingPathComponent(
            "demo", isDirectory: true)
    }

    /// The demo home at `home`, or `nil` when `home` is not one.
    /// - throws: ``DemoError/unreadableMarker(path:)`` when the marker exists but cannot be read.
    static func existing(at home: URL) throws -> DemoHome? {
        let marker = home.appendingPathComponent(markerName)
        guard FileManager.default.fileExists(atPath: marker.path) else { return nil }
        do {
            return try JSONDecoder().decode(DemoHome.self, from: Data(contentsOf: marker))
        } catch {
            throw DemoError.unreadableMarker(path: marker.path)
        }
    }

    /// Marks `home` (which must exist) as this demo's.
    func mark(_ home: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: home.appendingPathComponent(Self.markerName), options: .atomic)
    }

    /// The mailbox directory, the shipped one resolved where this binary finds it.
    /// - throws: ``DemoError/mailboxMissing(path:)`` when it is not there.
    func mailboxDirectory() throws -> URL {
        let directory =
            mailbox == Self.builtinMailbox
            ? try Self.shippedMailbox() : URL(fileURLWithPath: mailbox, isDirectory: true)
        guard FileManager.default.fileExists(atPath: directory.path) else {
            throw DemoError.mailboxMissing(path: directory.path)
        }
        return directory
    }

    /// How the mailbox is named to the user.
    var mailboxDescription: String { mailbox == Self.builtinMailbox ? "the built-in demo mailbox" : mailbox }

    /// The demo mailbox shipped as a resource bundle beside the `chatmail` binary.
    /// - throws: ``DemoError/mailboxMissing(path:)`` naming where it should be, when it is not there.
    static func shippedMailbox() throws -> URL {
        guard let directory = DemoMailboxResources.mailboxDirectory else {
            let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            let expected = executable.deletingLastPathComponent()
                .appendingPathComponent(DemoMailboxResources.bundleName).appendingPathComponent("demo-mailbox")
            throw DemoError.mailboxMissing(path: expected.path)
        }
        return directory
    }

    /// Starts the emulator on this home's mailbox and journal.
    func startEmulator(home: URL) throws -> EmulatorChild {
        try EmulatorChild.demo(
            mailbox: try mailboxDirectory(), me: me, journal: home.appendingPathComponent(Self.journalName))
    }

    /// Where chatmail finds Gmail and OAuth on a running emulator.
    static func settings(for emulator: EmulatorChild) -> GmailSettings {
        let base = emulator.baseURL.absoluteString
        return GmailSettings(
            apiURL: emulator.baseURL, authorizationURL: URL(string: base + "/o/oauth2/v2/auth")!,
            tokenURL: URL(string: base + "/token")!, clientID: EmulatorChild.clientID, clientSecret: nil)
    }
}

/// Why the demo, or a command on a demo home, could not reach the demo mailbox.
enum DemoError: Error, Sendable {
    case emulatorMissing(path: String)
    case emulatorFailed(reason: String)
    case mailboxMissing(path: String)
    case unreadableMarker(path: String)
    /// The chosen home holds a real account; the demo never writes into it.
    case homeHoldsAccount(path: String)
}

extension DemoError: LocalizedError {
    var errorDescription: String? {
        switch self {
        case .emulatorMissing(let path):
            "gmail-emulator is not built beside chatmail (\(path)); run `swift build`"
        case .emulatorFailed(let reason):
            "the demo's Gmail emulator did not start: \(reason)"
        case .mailboxMissing(let path):
            "the demo mailbox is not at \(path); run `chatmail demo --mailbox DIR`, or remove the demo home to start afresh"
        case .unreadableMarker(let path):
            "\(path) is damaged; remove the demo home to start afresh"
        case .homeHoldsAccount(let path):
            "\(path) holds a real account, and the demo never writes into it; run `chatmail demo --home DIR` with another directory"
        }
    }
}
