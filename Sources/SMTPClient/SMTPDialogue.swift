/// The SMTP conversation of one submission as libcurl's debug stream shows it: the command the client
/// sent last and the server's replies, each tied to the command it answers.
///
/// Invariant: ``endOfDataReply`` is set only by a reply that came after the server's 354 to DATA, that is
/// the reply to the end of the message; replies to QUIT are never recorded, so the outcome of the
/// submission cannot be overwritten by the goodbye that follows it.
struct SMTPDialogue: Sendable {
    /// What the client last asked for, which the next reply answers.
    enum Stage: Sendable, Equatable {
        case greeting, hello, startTLS, authentication, mailFrom, recipient, data
        /// After the server's 354: the message is on its way and the next reply answers its end.
        case message
        case quit
        /// RSET, NOOP and anything else libcurl may send between transactions.
        case other
    }

    /// One complete reply, the lines of a multi-line reply joined with spaces.
    struct Reply: Sendable, Equatable {
        var code: Int
        var text: String
        var stage: Stage
    }

    private(set) var stage: Stage = .greeting
    private(set) var lastReply: Reply?
    private(set) var endOfDataReply: Reply?
    /// The texts of a multi-line reply's lines so far.
    private var pendingLines: [String] = []
    /// Bytes of a server line whose line feed has not come yet.
    private var partialLine: [UInt8] = []

    /// Bytes the server sent outside the message body (libcurl's CURLINFO_HEADER_IN).
    mutating func serverSent(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                receiveLine(partialLine)
                partialLine.removeAll(keepingCapacity: true)
            } else {
                partialLine.append(byte)
            }
        }
    }

    /// A command line the client sent (libcurl's CURLINFO_HEADER_OUT). Only its verb is looked at:
    /// the rest of an AUTH line, and the lines answering the server's 334 challenges, carry credentials.
    mutating func clientSent(_ bytes: some Collection<UInt8>) {
        // An answer to a challenge is base64, which a verb could spell; it is told apart by the challenge.
        if stage == .authentication, lastReply?.code == 334 { return }
        let verb = String(decoding: bytes.prefix { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\r") }, as: UTF8.self)
        switch verb.uppercased() {
        case "EHLO", "HELO": stage = .hello
        case "STARTTLS": stage = .startTLS
        case "AUTH": stage = .authentication
        case "MAIL": stage = .mailFrom
        case "RCPT": stage = .recipient
        case "DATA": stage = .data
        case "QUIT": stage = .quit
        default: stage = .other
        }
    }

    private mutating func receiveLine(_ line: [UInt8]) {
        let text = String(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line[...], as: UTF8.self)
        let characters = Array(text.utf8)
        guard characters.count >= 3, characters[0..<3].allSatisfy({ (0x30...0x39).contains($0) }),
            let code = Int(String(decoding: characters[0..<3], as: UTF8.self))
        else { return }  // not a reply line; nothing to learn from it
        let continued = characters.count > 3 && characters[3] == UInt8(ascii: "-")
        pendingLines.append(characters.count > 4 ? String(decoding: characters[4...], as: UTF8.self) : "")
        guard !continued else { return }
        let reply = Reply(code: code, text: pendingLines.joined(separator: " "), stage: stage)
        pendingLines.removeAll()
        switch stage {
        case .quit: return
        case .data where code == 354: stage = .message
        case .message: endOfDataReply = reply
        default: break
        }
        lastReply = reply
    }
}

/// How libcurl's transfer ended, reduced to what deciding the outcome needs.
enum SMTPTransportEnd: Sendable, Equatable {
    case completed
    /// A write to the connection failed: whatever was being written did not all reach the server.
    case sendFailed
    /// libcurl gave up logging in without a refusal from the server (no mechanism in common).
    case loginImpossible
    /// Anything else: a refused connection, TLS, a timeout, a dropped connection.
    case failed
}

extension SMTPDialogue {
    /// The submission's outcome, from the dialogue, how the transfer ended and whether every byte of the
    /// message had been handed to libcurl.
    ///
    /// libcurl writes the end of data (".") only after the read callback has handed over the last byte,
    /// and after writing it only reads; so a failure with bytes still undelivered to libcurl, or a failed
    /// write, proves the server never saw the end of the message, while any other failure once the whole
    /// message was handed over leaves it unknown.
    func outcome(
        transport: SMTPTransportEnd, reason: String, messageHandedOver: Bool, server: String
    ) -> Result<SMTPReceipt, SMTPError> {
        if let reply = endOfDataReply {
            switch reply.code / 100 {
            case 2: return .success(SMTPReceipt(code: reply.code, serverText: reply.text))
            case 4: return .failure(.temporary(code: reply.code, serverText: reply.text))
            case 5: return .failure(.refused(code: reply.code, serverText: reply.text))
            default:
                return .failure(
                    .outcomeUnknown(
                        reason: "\(server) answered the end of the message with \(reply.code) \(reply.text)")
                )
            }
        }
        if transport == .completed {
            return .failure(.outcomeUnknown(reason: "\(server): no reply to the end of the message was seen"))
        }
        if let reply = lastReply, reply.code >= 400 {
            return .failure(Self.negative(reply, server: server))
        }
        switch transport {
        case .loginImpossible:
            return .failure(
                .authenticationFailed(serverText: "\(server) offers no login method in common with this client"))
        case .failed where messageHandedOver:
            return .failure(
                .outcomeUnknown(
                    reason:
                        "\(server): the connection failed after the whole message was handed over, before the reply: \(reason)"
                ))
        default:
            return .failure(.unreachable(reason: "\(server): \(reason)"))
        }
    }

    /// The error a negative reply that ended the dialogue stands for, by the command it answered.
    private static func negative(_ reply: Reply, server: String) -> SMTPError {
        let temporary = reply.code < 500
        switch reply.stage {
        case .greeting, .hello, .startTLS:
            if temporary { return .temporary(code: reply.code, serverText: reply.text) }
            return .unreachable(reason: "\(server) turned the session away: \(reply.code) \(reply.text)")
        case .authentication:
            if temporary { return .temporary(code: reply.code, serverText: reply.text) }
            return .authenticationFailed(serverText: "\(reply.code) \(reply.text)")
        default:
            // 530: this server wants a login before it takes mail, which is a setting to fix, not the message.
            if reply.code == 530 { return .authenticationFailed(serverText: "\(reply.code) \(reply.text)") }
            if temporary { return .temporary(code: reply.code, serverText: reply.text) }
            return .refused(code: reply.code, serverText: reply.text)
        }
    }
}
