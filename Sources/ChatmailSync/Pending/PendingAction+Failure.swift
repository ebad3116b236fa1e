import ChatmailStore
import GmailAPI

/// What a failed attempt means for its action, whichever provider failed it.
enum FailureDisposition: Equatable {
    /// Transient: try again after the backoff (or the server's hint, if longer).
    case retryLater(retryAfterMs: Int64?)
    /// The server could not be reached: try again later, without counting the attempt.
    case unreachable
    /// Permanent for this action: give up now, with the reason.
    case abandon
    /// The login is broken: nothing can be sent; stop the run without blaming the action.
    case stopRun
}

/// How a failed attempt ended, once recorded.
enum RecordedFailure: Equatable {
    case failed, abandoned, unreachable
}

extension PendingAction {
    /// Records a failed attempt on the action, by the error's disposition: its status, its reason and
    /// when it is tried again. The one rule for label changes and sends alike.
    ///
    /// - parameter unreachableStatus: the status the action waits in when Gmail could not be reached (the
    ///   attempt is then not counted).
    /// - returns: the outcome to report, or `nil` for a broken login: the caller puts the action back as
    ///   it was and stops the run.
    mutating func recordFailure(
        _ error: GmailAPIError, unreachableStatus: PendingActionStatus, schedule: BackoffSchedule, nowMs: Int64,
        random: any RandomSource
    ) -> PendingActionSender.SendResult? {
        let recorded = recordFailure(
            PendingActionSender.disposition(of: error), reason: PendingActionSender.describe(error),
            unreachableStatus: unreachableStatus, schedule: schedule, nowMs: nowMs, random: random)
        switch recorded {
        case nil: return nil
        case .failed: return .failed
        case .abandoned: return .abandoned
        case .unreachable: return .unreachable(error)
        }
    }

    /// Records a failed attempt with `disposition` and the one-line `reason`; `nil` for a broken login.
    mutating func recordFailure(
        _ disposition: FailureDisposition, reason: String, unreachableStatus: PendingActionStatus,
        schedule: BackoffSchedule, nowMs: Int64, random: any RandomSource
    ) -> RecordedFailure? {
        switch disposition {
        case .stopRun:
            return nil
        case .unreachable:
            attempts -= 1
            status = unreachableStatus
            lastError = reason
            nextAttemptAtMs =
                nowMs + schedule.unreachableDelayMs(waitedMs: nowMs - createdAtMs, unit: random.unitInterval())
            return .unreachable
        case .retryLater(let retryAfterMs) where attempts < schedule.maxAttempts:
            status = .failed
            lastError = reason
            nextAttemptAtMs = schedule.nextAttemptMs(
                afterAttempt: attempts, nowMs: nowMs, random: random, retryAfterMs: retryAfterMs)
            return .failed
        case .retryLater:
            status = .abandoned
            lastError = "Gave up after \(attempts) attempts. " + reason
            return .abandoned
        case .abandon:
            status = .abandoned
            lastError = reason
            return .abandoned
        }
    }
}
