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
/// `List-Post`, `Precedence: bulk|junk`, `Auto-Submitted: auto-generated`, a no-reply-style sender (the
/// whole local part, so `noreply@x` matches and `anoreplyb@x` does not) and known bulk-sending domains.
/// A mailing-list discussion (`List-Post`, or Gmail's Forums category) is people talking, so it is never
/// a newsletter on list signals alone; only a Promotions/Social/Updates category overrides that.
public enum NewsletterClassifier {
    public static func classify(
        headers: HeaderFields, from: MailAddress?, gmailLabels: [String] = []
    ) -> NewsletterClassification {
        var signals: [String] = []
        var discussion: [String] = []

        let categories = gmailLabels.filter { $0.hasPrefix("CATEGORY_") }
        for category in categories {
            switch category {
            case "CATEGORY_PROMOTIONS", "CATEGORY_SOCIAL", "CATEGORY_UPDATES":
                signals.append("gmail category \(category.dropFirst("CATEGORY_".count).lowercased())")
            case "CATEGORY_FORUMS":
                discussion.append("gmail category forums")
            default:
                break  // CATEGORY_PERSONAL and categories Gmail may add later carry no bulk signal
            }
        }
        let hasListPost = headers.contains("List-Post")
        if hasListPost { discussion.append("mailing-list discussion (List-Post)") }
        if headers.contains("List-Unsubscribe") { signals.append("List-Unsubscribe header") }
        if headers.contains("List-Id") && !hasListPost { signals.append("List-Id without List-Post") }
        if let precedence = value(of: "Precedence", in: headers)?.lowercased(), precedence == "bulk" || precedence == "junk" {
            signals.append("Precedence: \(precedence)")
        }
        if let auto = value(of: "Auto-Submitted", in: headers)?.lowercased(), auto.hasPrefix("auto-generated") {
            signals.append("Auto-Submitted: auto-generated")
        }
        if let address = from?.address.lowercased() {
            let parts = address.split(separator: "@", maxSplits: 1)
            let local = parts.first.map { String($0.prefix { $0 != "+" }) } ?? ""
            if noReplyLocalParts.contains(local) { signals.append("no-reply sender (\(local)@)") }
            if parts.count == 2, let domain = bulkDomain(String(parts[1])) { signals.append("bulk sender domain \(domain)") }
        }
        for name in ["Sender", "Return-Path"] {
            guard let raw = value(of: name, in: headers)?.lowercased(),
                  let at = raw.lastIndex(of: "@") else { continue }
            let domain = raw[raw.index(after: at)...].trimmingCharacters(in: CharacterSet(charactersIn: "> "))
            if let bulk = bulkDomain(domain), !signals.contains("bulk sender domain \(bulk)") {
                signals.append("bulk sender domain \(bulk) (\(name))")
            }
        }

        let categoryOverride = signals.contains { $0.hasPrefix("gmail category") }
        let isNewsletter = !signals.isEmpty && (discussion.isEmpty || categoryOverride)
        return NewsletterClassification(isNewsletter: isNewsletter, reasons: signals + discussion)
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
        bulkDomains.first { domain == $0 || domain.hasSuffix("." + $0) }
    }

    static func value(of name: String, in headers: HeaderFields) -> String? {
        headers.first(name).map { String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespaces) }
    }
}
