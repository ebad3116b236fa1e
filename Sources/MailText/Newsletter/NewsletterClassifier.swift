import Foundation

/// Whether a message is a newsletter (bulk or automated mail) rather than mail from a person, and why.
public struct NewsletterClassification: Sendable, Equatable {
    public var isNewsletter: Bool
    /// Every signal that was found, for the decision either way (`view --json` shows them).
    public var reasons: [String]

    public init(isNewsletter: Bool, reasons: [String]) {
        self.isNewsletter = isNewsletter
        self.reasons = reasons
    }
}

/// Classifies messages from their headers, sender and Gmail labels.
///
/// Bulk signals: Gmail's Promotions/Social/Updates categories, `List-Unsubscribe`, `List-Id` without
/// `List-Post`, a read-only list (`List-Post: NO`), `Precedence: bulk|junk`, `Auto-Submitted:
/// auto-generated`, a no-reply-style sender (the whole local part, so `noreply@x` matches and `anoreplyb@x`
/// does not) and known bulk-sending domains.
///
/// A mailing-list discussion is people talking, not a newsletter, even though a list adds the same headers
/// a bulk sender does. A list that accepts posts (`List-Post` other than `NO`, or Gmail's Forums category)
/// is a discussion whatever else the message carries; only a Promotions/Social/Updates category overrides
/// that. Lists that send no `List-Post` (vger, majordomo, ezmlm) are recognized by a message written to the
/// list's own address or replying within the list; that outweighs the list-delivery signals
/// (`List-Unsubscribe`, `List-Id`, `Precedence: bulk`) but not an automated sender or a read-only list.
public enum NewsletterClassifier {
    public static func classify(
        headers: HeaderFields, from: MailAddress?, gmailLabels: [String] = []
    ) -> NewsletterClassification {
        var signals: [BulkSignal] = []
        var discussion: [String] = []

        let categories = gmailLabels.filter { $0.hasPrefix("CATEGORY_") }
        for category in categories {
            switch category {
            case "CATEGORY_PROMOTIONS", "CATEGORY_SOCIAL", "CATEGORY_UPDATES":
                signals.append(
                    .init("gmail category \(category.dropFirst("CATEGORY_".count).lowercased())", .gmailCategory))
            case "CATEGORY_FORUMS":
                discussion.append("gmail category forums")
            default:
                break  // CATEGORY_PERSONAL and categories Gmail may add later carry no bulk signal
            }
        }
        let hasListPost = headers.contains("List-Post")
        let posting = headers.first("List-Post").flatMap(ListHeaders.posting)
        let isReadOnly = posting == .readOnly
        if hasListPost && !isReadOnly { discussion.append("mailing-list discussion (List-Post)") }
        if isReadOnly { signals.append(.init("read-only list (List-Post: NO)")) }
        if headers.contains("List-Unsubscribe") { signals.append(.init("List-Unsubscribe header", .listDelivery)) }
        if headers.contains("List-Id") && !hasListPost {
            signals.append(.init("List-Id without List-Post", .listDelivery))
        }
        if let precedence = value(of: "Precedence", in: headers)?.lowercased(),
            precedence == "bulk" || precedence == "junk"
        {
            // Lists mark their mail bulk too; junk is only ever automated.
            signals.append(.init("Precedence: \(precedence)", precedence == "bulk" ? .listDelivery : .automated))
        }
        if let auto = value(of: "Auto-Submitted", in: headers)?.lowercased(), auto.hasPrefix("auto-generated") {
            signals.append(.init("Auto-Submitted: auto-generated"))
        }
        signals += senderSignals(headers: headers, from: from).map { BulkSignal($0) }

        // A list that accepts posts (or Gmail's Forums) decides alone; otherwise look for a post to the list.
        let acceptsPosts = !discussion.isEmpty
        if !acceptsPosts && !isReadOnly { discussion = ListDiscussion.evidence(in: headers) }

        let isNewsletter: Bool
        if signals.contains(where: { $0.kind == .gmailCategory }) {
            isNewsletter = true
        } else if acceptsPosts {
            isNewsletter = false
        } else if !discussion.isEmpty {
            isNewsletter = signals.contains { $0.kind != .listDelivery }
        } else {
            isNewsletter = !signals.isEmpty
        }
        return NewsletterClassification(isNewsletter: isNewsletter, reasons: signals.map(\.reason) + discussion)
    }

    /// One sign of bulk mail: the reason shown to the user, and what kind of sign it is, which is what the
    /// decision reads (so rewording a reason cannot change a decision).
    struct BulkSignal {
        enum Kind {
            /// Gmail's Promotions, Social or Updates category: it overrides everything else.
            case gmailCategory
            /// Added by every mailing list, discussion or not: it says how the mail was delivered, not
            /// who wrote it.
            case listDelivery
            /// Anything else: an automated sender, a read-only list, a bulk-sending domain.
            case automated
        }

        var reason: String
        var kind: Kind

        init(_ reason: String, _ kind: Kind = .automated) {
            self.reason = reason
            self.kind = kind
        }
    }

    /// A no-reply-style author, or a bulk-sending domain in the author, `Sender` or `Return-Path` address.
    private static func senderSignals(headers: HeaderFields, from: MailAddress?) -> [String] {
        var signals: [String] = []
        if let address = from?.address.lowercased() {
            let parts = address.split(separator: "@", maxSplits: 1)
            let local = parts.first.map { String($0.prefix { $0 != "+" }) } ?? ""
            if noReplyLocalParts.contains(local) { signals.append("no-reply sender (\(local)@)") }
            if parts.count == 2, let domain = bulkDomain(String(parts[1])) {
                signals.append("bulk sender domain \(domain)")
            }
        }
        for name in ["Sender", "Return-Path"] {
            guard let raw = value(of: name, in: headers)?.lowercased(),
                let at = raw.lastIndex(of: "@")
            else { continue }
            let domain = raw[raw.index(after: at)...].trimmingCharacters(in: domainTrimmed)
            if let bulk = bulkDomain(domain), !signals.contains("bulk sender domain \(bulk)") {
                signals.append("bulk sender domain \(bulk) (\(name))")
            }
        }
        return signals
    }

    /// Local parts used only by automated senders, compared whole (after a `+tag` is cut).
    static let noReplyLocalParts: Set<String> = [
        "noreply", "no-reply", "no_reply", "no.reply", "donotreply", "do-not-reply", "do_not_reply",
        "newsletter", "newsletters", "news", "notifications", "notification", "notify", "alerts", "alert",
        "mailer", "mailer-daemon", "bounce", "bounces", "marketing", "promotions", "digest", "updates",
    ]

    /// Domains (and their subdomains) that only send bulk mail for others. Not `mailgun.org`: its
    /// subdomains are Mailgun's sandbox domains, which people use for their own (person-to-person) mail.
    static let bulkDomains: [String] = [
        "mcsv.net", "mcdlv.net", "rsgsv.net", "list-manage.com", "mailchimpapp.net", "sendgrid.net",
        "amazonses.com", "sparkpostmail.com", "exacttarget.com", "createsend.com", "cmail19.com", "cmail20.com",
        "constantcontact.com", "hubspotemail.net", "klaviyomail.com", "substack.com", "beehiiv.com",
        "mandrillapp.com", "sendinblue.com", "brevo.com", "mailjet.com", "em.salesforce.com",
    ]

    static func bulkDomain(_ domain: String) -> String? {
        zip(bulkDomains, dottedBulkDomains).first { domain == $0 || domain.hasSuffix($1) }?.0
    }

    /// ``bulkDomains`` with a leading dot, built once instead of once per domain per message.
    static let dottedBulkDomains = bulkDomains.map { "." + $0 }

    /// The characters cut from a Sender or Return-Path domain.
    static let domainTrimmed = CharacterSet(charactersIn: "> ")

    static func value(of name: String, in headers: HeaderFields) -> String? {
        headers.first(name).map { WhitespaceTrimming.whitespaces.trimming(String(decoding: $0, as: UTF8.self)) }
    }
}
