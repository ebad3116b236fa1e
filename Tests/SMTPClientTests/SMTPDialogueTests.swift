import Testing

@testable import SMTPClient

/// The dialogue follower and the outcome rules on their own, fed the lines libcurl's debug stream shows,
/// for the orders of events a loopback server cannot be made to produce on cue.
@Suite("SMTP dialogue: following the replies and deciding the outcome")
struct SMTPDialogueTests {
    /// A dialogue fed alternately what the client sent (`>`) and what the server sent (`<`).
    static func dialogue(_ lines: [String]) -> SMTPDialogue {
        var dialogue = SMTPDialogue()
        for line in lines {
            let bytes = Array(line.dropFirst(2).utf8) + Array("\r\n".utf8)
            if line.hasPrefix(">") { dialogue.clientSent(bytes) } else { dialogue.serverSent(bytes) }
        }
        return dialogue
    }

    static let upToData = [
        "< 220 mx.example ESMTP", "> EHLO client", "< 250-mx.example", "< 250-AUTH PLAIN LOGIN", "< 250 8BITMIME",
        "> AUTH LOGIN", "< 334 VXNlcm5hbWU6",
        // Base64 answers to challenges that happen to spell commands must not move the dialogue on.
        "> DATA", "< 334 UGFzc3dvcmQ6", "> QUIT", "< 235 2.7.0 Authentication successful",
        "> MAIL FROM:<me@example.org>", "< 250 2.1.0 Ok", "> RCPT TO:<you@example.net>", "< 250 2.1.5 Ok",
        "> DATA", "< 354 End data with <CR><LF>.<CR><LF>",
    ]

    @Test("the reply to the end of the message is the receipt, multi-line text joined, the goodbye ignored")
    func receipt() {
        let dialogue = Self.dialogue(
            Self.upToData + ["< 250-2.0.0 Ok:", "< 250 queued as 12345", "> QUIT", "< 221 2.0.0 Bye"])
        let outcome = dialogue.outcome(transport: .completed, reason: "", messageHandedOver: true, server: "mx:587")
        #expect(outcome == .success(SMTPReceipt(code: 250, serverText: "2.0.0 Ok: queued as 12345")))
    }

    @Test("answers to login challenges keep the dialogue in the login, so a 535 there is a refused login")
    func challengeAnswers() {
        let dialogue = Self.dialogue([
            "< 220 mx", "> EHLO c", "< 250 AUTH LOGIN", "> AUTH LOGIN", "< 334 VXNlcm5hbWU6", "> MAIL",
            "< 334 UGFzc3dvcmQ6", "> RCPT", "< 535 5.7.8 Bad credentials",
        ])
        #expect(dialogue.stage == .authentication)
        let outcome = dialogue.outcome(transport: .failed, reason: "", messageHandedOver: false, server: "mx:587")
        #expect(outcome == .failure(.authenticationFailed(serverText: "535 5.7.8 Bad credentials")))
    }

    @Test("a transport failure is unreachable before every byte is handed over, unknown after")
    func transportFailure() {
        let dialogue = Self.dialogue(Self.upToData)
        #expect(
            dialogue.outcome(transport: .failed, reason: "reset", messageHandedOver: false, server: "mx:587")
                == .failure(.unreachable(reason: "mx:587: reset")))
        guard
            case .failure(.outcomeUnknown(let reason)) = dialogue.outcome(
                transport: .failed, reason: "reset", messageHandedOver: true, server: "mx:587")
        else {
            Issue.record("expected outcomeUnknown")
            return
        }
        #expect(reason.hasPrefix("mx:587:"))
    }

    @Test("a failed write means the end of the message never reached the server: unreachable")
    func failedWrite() {
        let outcome = Self.dialogue(Self.upToData).outcome(
            transport: .sendFailed, reason: "broken pipe", messageHandedOver: true, server: "mx:587")
        #expect(outcome == .failure(.unreachable(reason: "mx:587: broken pipe")))
    }

    @Test(
        "a negative reply is judged by the command it answers",
        arguments: [
            (
                "> MAIL FROM:<me@example.org>", "< 553 5.1.8 Sender refused",
                SMTPError.refused(code: 553, serverText: "5.1.8 Sender refused")
            ),
            (
                "> MAIL FROM:<me@example.org>", "< 421 4.7.0 Try later",
                .temporary(code: 421, serverText: "4.7.0 Try later")
            ),
            (
                "> MAIL FROM:<me@example.org>", "< 530 5.7.0 Authentication required",
                .authenticationFailed(serverText: "530 5.7.0 Authentication required")
            ),
            (
                "> STARTTLS", "< 454 4.7.0 TLS not available",
                .temporary(code: 454, serverText: "4.7.0 TLS not available")
            ),
            (
                "> EHLO c", "< 554 5.7.1 Go away",
                .unreachable(reason: "mx:587 turned the session away: 554 5.7.1 Go away")
            ),
        ])
    func negativeReplies(command: String, reply: String, expected: SMTPError) {
        let dialogue = Self.dialogue(["< 220 mx", command, reply])
        let outcome = dialogue.outcome(transport: .failed, reason: "", messageHandedOver: false, server: "mx:587")
        #expect(outcome == .failure(expected))
    }

    @Test("a login libcurl cannot even attempt is a refused login, naming the server")
    func noMechanismInCommon() {
        let dialogue = Self.dialogue(["< 220 mx", "> EHLO c", "< 250 AUTH CRAM-MD5"])
        guard
            case .failure(.authenticationFailed(let text)) = dialogue.outcome(
                transport: .loginImpossible, reason: "", messageHandedOver: false, server: "mx:587")
        else {
            Issue.record("expected authenticationFailed")
            return
        }
        #expect(text.contains("mx:587"))
    }
}
