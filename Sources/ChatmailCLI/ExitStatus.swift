import ChatmailStore
import ChatmailSync
import Foundation
import GmailAPI
import IMAPClient
import MarkdownExport
import SMTPClient
import TerminalUI
import TextFormatting

/// The process exit codes scripts rely on, and the ONE mapping from error kinds to them.
enum ExitStatus: Int32, Sendable {
    case ok = 0
    /// Runtime failure: network gave up, server error, broken installation.
    case failure = 1
    /// `<person>` not found or ambiguous (also: no such message for `--message`, no such queued action).
    case personNotFound = 2
    /// Not logged in, or credentials revoked.
    case notLoggedIn = 3
    /// The database is locked by another writer, or needs migration.
    case databaseUnavailable = 4
    /// The database file is damaged: a corrupt page, or not a database at all.
    case databaseDamaged = 5
    /// Usage error.
    case usage = 64
    /// Bad input data.
    case dataError = 65

    var code: Int32 { rawValue }

    /// The status for errors chatmail knows; `nil` for anything else, which ``ChatmailCommand`` reports
    /// as a runtime failure (exit 1) on one line.
    init?(for error: any Error) {
        switch error {
        case let error as StoreError:
            switch error {
            case .noAccount, .unknownAccount: self = .notLoggedIn
            case .databaseLocked, .migrationFailed, .schemaFromNewerVersion: self = .databaseUnavailable
            case .databaseDamaged: self = .databaseDamaged
            case .accountNotChosen, .providerMismatch: self = .usage
            case .schemaMissing, .invalidMigrations, .unreadableDatabase: self = .failure
            }
        case let error as GmailAPIError:
            switch error {
            case .logInAgain:
                self = .notLoggedIn
            // Its message sends the user to `chatmail login` for the missing scope, so scripts see it as one.
            case .giveUp(.permissionDenied):
                self = .notLoggedIn
            case .retryLater, .giveUp, .badRequest:
                self = .failure
            }
        case let error as LoginFlowError:
            switch error {
            case .authorizationDenied, .stateMismatch: self = .notLoggedIn
            case .loginTimedOut, .loopback: self = .failure
            }
        case is CredentialStoreError:
            self = .failure
        case let error as IMAPClientError:
            switch error {
            case .authenticationFailed: self = .notLoggedIn
            default: self = .failure
            }
        case is IMAPCredentialError:
            self = .notLoggedIn
        case let error as SMTPError:
            switch error {
            case .authenticationFailed: self = .notLoggedIn
            default: self = .failure
            }
        case let error as SyncError:
            switch error {
            case .accountMismatch: self = .notLoggedIn
            case .alreadyRunning: self = .databaseUnavailable
            case .lockUnavailable: self = .failure
            }
        case let error as ActionQueue.Failure:
            switch error {
            case .messageNotFound, .actionNotFound: self = .personNotFound
            }
        case let error as GmailSettings.Problem:
            switch error {
            case .invalidURL: self = .usage
            }
        case let error as DemoError:
            switch error {
            case .homeHoldsAccount: self = .usage
            case .emulatorMissing, .emulatorFailed, .mailboxMissing, .unreadableMarker: self = .failure
            }
        case let error as ReplyPlanner.Failure:
            switch error {
            case .nothingToAnswer, .listDoesNotAcceptPosts, .notAnAddress: self = .usage
            case .noOwnAddress: self = .notLoggedIn
            }
        case let error as RuleError:
            switch error {
            case .unknownRule: self = .personNotFound  // nothing by that id, as for `pending retry`
            case .notAnAddress, .notADomain, .noWords, .archiveNeedsDeny: self = .usage
            }
        case is RulesTOMLError:
            self = .dataError
        case is CodesError:
            self = .personNotFound  // nothing found, as for a person: scripts test for 2
        case is SearchError, is ConfigError:
            self = .usage
        case let error as ExportError:
            switch error {
            case .attachmentsNeedLogin: self = .notLoggedIn
            case .notADirectory: self = .usage
            case .wouldOverwrite, .writeFailed, .attachmentUnavailable, .attachmentsFailed: self = .failure
            }
        case let error as CommandError:
            switch error {
            case .personNotFound, .personAmbiguous, .noGroupConversation, .senderNotFound, .senderAmbiguous:
                self = .personNotFound
            case .outputFailed: self = .failure
            case .badInput, .notAMessage: self = .dataError
            case .emptyMessage, .editorFailed, .cannotSend, .needsTerminal: self = .usage
            }
        default:
            return nil
        }
    }

    /// The name of the status in `--json` error documents, stable across releases like the code.
    var kind: String {
        switch self {
        case .ok: "ok"
        case .failure: "failure"
        case .personNotFound: "personNotFound"
        case .notLoggedIn: "notLoggedIn"
        case .databaseUnavailable: "databaseUnavailable"
        case .databaseDamaged: "databaseDamaged"
        case .usage: "usage"
        case .dataError: "dataError"
        }
    }

    /// An ambiguity report lists at most this many people and conversations (people first, each
    /// most recent first).
    static let maximumCandidatesListed = 10

    /// The text printed on stderr: one line, prefixed with the program name, plus the candidate list
    /// when a person is ambiguous.
    static func message(for error: any Error) -> String {
        var described = error
        if case SearchError.badQuery(let reason) = error {
            // FTS5's reason quotes the query near the error, and the query can be long.
            described = SearchError.badQuery(EchoedInput.excerpt(reason))
        }
        var text = "chatmail: \(summary(of: described))\n"
        var lines: [String] = []
        if case CommandError.personAmbiguous(_, let people, let conversations) = error {
            lines = people.map(CandidateLine.describe) + conversations.map(CandidateLine.describe)
        } else if case CommandError.senderAmbiguous(_, let senders) = error {
            lines = senders.map(CandidateLine.name)
        }
        if !lines.isEmpty {
            for line in lines.prefix(maximumCandidatesListed) {
                text += "  " + line + "\n"
            }
            if lines.count > maximumCandidatesListed {
                text += "  … and \(lines.count - maximumCandidatesListed) more\n"
            }
        }
        return text
    }

    /// The error's message on one line. Unexpected errors use their own description, except those of
    /// the database library, whose descriptions quote SQL and row values.
    static func summary(of error: any Error) -> String {
        let description =
            StoreError.databaseFailureSummary(of: error)
            ?? (error as? any LocalizedError)?.errorDescription ?? "\(error)"
        return TerminalSafeText.singleLine(description)
    }
}
