import ChatmailStore
import GmailAPI

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
        let reason = PendingActionSender.describe(error)
        switch PendingActionSender.disposition(of: error) {
        case .stopRun:
            return nil
        case .unreachable:
            attempts -= 1
            status = unreachableStatus
            lastError = reason
            nextAttemptAtMs =
                nowMs + schedule.unreachableDelayMs(waitedMs: nowMs - createdAtMs, unit: random.unitInterval())
            return .unreachable(error)
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
