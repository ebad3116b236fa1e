import CCurlShim

/// One submission through one libcurl easy handle, run start to end on the calling thread.
///
/// Invariant: the handle, the recipient list and this object's buffers live exactly as long as the
/// transfer: libcurl keeps pointers to all three (callback data, the list, the error buffer) and calls
/// back into this object until `curl_easy_cleanup`, QUIT included.
final class SMTPTransfer {
    private let endpoint: SMTPEndpoint
    private let authentication: SMTPAuthentication
    private let timeouts: SMTPTimeouts
    private let envelope: SMTPEnvelope
    private let message: [UInt8]
    /// How many bytes of `message` the read callback has handed to libcurl.
    private var handedOver = 0
    /// Whether libcurl has asked for the message and got all of it: only then can it write the end of data.
    private var messageHandedOver = false
    private var dialogue = SMTPDialogue()
    private let errorBuffer: UnsafeMutablePointer<CChar>

    init(
        endpoint: SMTPEndpoint, authentication: SMTPAuthentication, timeouts: SMTPTimeouts, envelope: SMTPEnvelope,
        message: [UInt8]
    ) {
        self.endpoint = endpoint
        self.authentication = authentication
        self.timeouts = timeouts
        self.envelope = envelope
        self.message = message
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit { errorBuffer.deallocate() }

    /// Runs the submission, blocking, and hands its outcome to `finished` as soon as it is known: the
    /// QUIT that libcurl sends while cleaning up comes after, so a slow goodbye never delays the outcome.
    func run(finished: (Result<SMTPReceipt, SMTPError>) -> Void) {
        let initialised = ccurl_global_init_once()
        guard initialised == CURLE_OK else {
            return finished(.failure(.unreachable(reason: "libcurl failed to start: \(Self.describe(initialised))")))
        }
        guard let handle = curl_easy_init() else {
            return finished(.failure(.unreachable(reason: "libcurl could not create a transfer")))
        }
        var recipients: UnsafeMutablePointer<curl_slist>?
        defer {
            curl_easy_cleanup(handle)
            curl_slist_free_all(recipients)
        }
        for recipient in envelope.recipients {
            guard let appended = curl_slist_append(recipients, recipient) else {
                return finished(.failure(.unreachable(reason: "out of memory listing the recipients")))
            }
            recipients = appended
        }
        let context = Unmanaged.passUnretained(self).toOpaque()
        if let failure = configure(handle, recipients: recipients, context: context) {
            return finished(.failure(.unreachable(reason: "\(endpoint.name): cannot set up libcurl: \(failure)")))
        }
        let code = curl_easy_perform(handle)
        finished(outcome(of: code))
    }

    /// Sets every option; returns libcurl's words for the first one it refused.
    private func configure(
        _ handle: UnsafeMutableRawPointer, recipients: UnsafeMutablePointer<curl_slist>?,
        context: UnsafeMutableRawPointer
    ) -> String? {
        var results: [(String, CURLcode)] = [
            ("NOSIGNAL", ccurl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)),
            ("ERRORBUFFER", ccurl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer)),
            // The debug function first: with VERBOSE on and none set, libcurl would write to stderr.
            ("DEBUGFUNCTION", ccurl_setopt_debug_function(handle, followDialogue)),
            ("DEBUGDATA", ccurl_setopt_pointer(handle, CURLOPT_DEBUGDATA, context)),
            ("VERBOSE", ccurl_setopt_long(handle, CURLOPT_VERBOSE, 1)),
            ("URL", ccurl_setopt_string(handle, CURLOPT_URL, endpoint.url)),
            ("PROTOCOLS_STR", ccurl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "smtp,smtps")),
            ("MAIL_FROM", ccurl_setopt_string(handle, CURLOPT_MAIL_FROM, envelope.from)),
            ("MAIL_RCPT", ccurl_setopt_slist(handle, CURLOPT_MAIL_RCPT, recipients)),
            ("UPLOAD", ccurl_setopt_long(handle, CURLOPT_UPLOAD, 1)),
            ("READFUNCTION", ccurl_setopt_read_function(handle, readMessage)),
            ("READDATA", ccurl_setopt_pointer(handle, CURLOPT_READDATA, context)),
            (
                "CONNECTTIMEOUT_MS",
                ccurl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(timeouts.connect))
            ),
            // Less than a byte a second for `idle` is no progress at all.
            ("LOW_SPEED_LIMIT", ccurl_setopt_long(handle, CURLOPT_LOW_SPEED_LIMIT, 1)),
            ("LOW_SPEED_TIME", ccurl_setopt_long(handle, CURLOPT_LOW_SPEED_TIME, Self.seconds(timeouts.idle))),
            // Waiting for a reply moves no bytes either, and the speed check does not cover every wait.
            (
                "SERVER_RESPONSE_TIMEOUT",
                ccurl_setopt_long(handle, CURLOPT_SERVER_RESPONSE_TIMEOUT, Self.seconds(timeouts.idle))
            ),
        ]
        if endpoint.security == .starttls {
            results.append(("USE_SSL", ccurl_setopt_long(handle, CURLOPT_USE_SSL, Int(CURLUSESSL_ALL.rawValue))))
        }
        if let caCertificatePath = endpoint.caCertificatePath {
            results.append(("CAINFO", ccurl_setopt_string(handle, CURLOPT_CAINFO, caCertificatePath)))
        }
        switch authentication {
        case .none:
            break
        case .password(let user, let password):
            results.append(("USERNAME", ccurl_setopt_string(handle, CURLOPT_USERNAME, user)))
            results.append(("PASSWORD", ccurl_setopt_string(handle, CURLOPT_PASSWORD, password)))
        case .xoauth2(let user, let token):
            results.append(("USERNAME", ccurl_setopt_string(handle, CURLOPT_USERNAME, user)))
            results.append(("XOAUTH2_BEARER", ccurl_setopt_string(handle, CURLOPT_XOAUTH2_BEARER, token)))
            // Left to choose, libcurl tries OAUTHBEARER first when offered, which Gmail refuses.
            results.append(("LOGIN_OPTIONS", ccurl_setopt_string(handle, CURLOPT_LOGIN_OPTIONS, "AUTH=XOAUTH2")))
        }
        guard let (name, code) = results.first(where: { $0.1 != CURLE_OK }) else { return nil }
        return "CURLOPT_\(name): \(Self.describe(code))"
    }

    private func outcome(of code: CURLcode) -> Result<SMTPReceipt, SMTPError> {
        let transport: SMTPTransportEnd =
            switch code {
            case CURLE_OK: .completed
            case CURLE_SEND_ERROR: .sendFailed
            case CURLE_LOGIN_DENIED: .loginImpossible
            default: .failed
            }
        let details = String(cString: errorBuffer)
        let reason = details.isEmpty ? Self.describe(code) : details
        return dialogue.outcome(
            transport: transport, reason: reason, messageHandedOver: messageHandedOver,
            server: endpoint.name)
    }

    /// Copies the next bytes of the message into libcurl's buffer; 0 once all are handed over.
    fileprivate func read(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        let count = min(capacity, message.count - handedOver)
        defer { if handedOver == message.count { messageHandedOver = true } }
        guard count > 0 else { return 0 }
        message.withUnsafeBytes { bytes in
            UnsafeMutableRawPointer(buffer).copyMemory(from: bytes.baseAddress! + handedOver, byteCount: count)
        }
        handedOver += count
        return count
    }

    fileprivate func observe(_ type: curl_infotype, _ bytes: UnsafeRawBufferPointer) {
        switch type {
        case CURLINFO_HEADER_IN: dialogue.serverSent(bytes)
        case CURLINFO_HEADER_OUT: dialogue.clientSent(bytes)
        default: break  // libcurl's notes, TLS records and the message itself
        }
    }

    private static func describe(_ code: CURLcode) -> String {
        curl_easy_strerror(code).map { String(cString: $0) } ?? "libcurl error \(code.rawValue)"
    }

    /// Whole milliseconds, at least 1 (0 would mean libcurl's default).
    private static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return max(1, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000))
    }

    /// Whole seconds rounded up, at least 1: these options take seconds, and 0 would switch them off.
    private static func seconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return max(1, Int(seconds) + (attoseconds > 0 ? 1 : 0))
    }
}

/// CURLOPT_READFUNCTION: the message's bytes as they are, never re-encoded.
private let readMessage: curl_read_callback = { buffer, size, count, context in
    guard let buffer, let context else { return Int(CURL_READFUNC_ABORT) }
    return Unmanaged<SMTPTransfer>.fromOpaque(context).takeUnretainedValue().read(into: buffer, capacity: size * count)
}

/// CURLOPT_DEBUGFUNCTION: follows the dialogue, and keeps libcurl's verbose output off stderr.
private let followDialogue: curl_debug_callback = { _, type, data, size, context in
    guard let context, let data else { return 0 }
    Unmanaged<SMTPTransfer>.fromOpaque(context).takeUnretainedValue().observe(
        type, UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
