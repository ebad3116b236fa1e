import Foundation
import MailText
import Testing

@Suite struct NewsletterClassifierTests {
    static func headers(_ pairs: [(String, String)]) -> HeaderFields {
        HeaderFields(pairs.map { HeaderField(name: $0.0, value: Array($0.1.utf8)) })
    }

    @Test(
        "bulk signals each make a newsletter, with the reason",
        arguments: [
            ([("List-Unsubscribe", "<mailto:u@x>")], "a@shop.example", [String](), "List-Unsubscribe header"),
            ([("List-Id", "<news.shop.example>")], "a@shop.example", [], "List-Id without List-Post"),
            ([("Precedence", "bulk")], "a@shop.example", [], "Precedence: bulk"),
            ([("Precedence", "JUNK")], "a@shop.example", [], "Precedence: junk"),
            ([("Auto-Submitted", "auto-generated")], "a@shop.example", [], "Auto-Submitted: auto-generated"),
            ([], "noreply@shop.example", [], "no-reply sender (noreply@)"),
            ([], "no-reply+abc@shop.example", [], "no-reply sender (no-reply@)"),  // +tag cut before matching
            ([], "hello@mail.substack.com", [], "bulk sender domain substack.com"),  // subdomain of a bulk domain
            (
                [("Return-Path", "<bounce-1@em.sendgrid.net>")], "hi@shop.example", [],
                "bulk sender domain sendgrid.net (Return-Path)"
            ),
            ([], "a@shop.example", ["CATEGORY_PROMOTIONS"], "gmail category promotions"),
        ] as [([(String, String)], String, [String], String)])
    func signals(pairs: [(String, String)], from: String, labels: [String], reason: String) {
        let result = NewsletterClassifier.classify(
            headers: Self.headers(pairs), from: MailAddress(address: from), gmailLabels: labels)
        #expect(result.isNewsletter)
        #expect(result.reasons.contains(reason), "\(result.reasons)")
    }

    @Test(
        "no-reply matches whole local parts only, and sandbox domains are people",
        arguments: [
            "anoreplyb@x.org", "noreplyer@x.org", "news.room@x.org", "bob@noreply.org", "bob@xxx.mailgun.org",
        ])
    func wholeLocalPart(from: String) {
        #expect(!NewsletterClassifier.classify(headers: HeaderFields(), from: MailAddress(address: from)).isNewsletter)
    }

    @Test("a mailing-list discussion is people talking, even with List-Unsubscribe")
    func discussion() {
        let result = NewsletterClassifier.classify(
            headers: Self.headers([
                ("List-Id", "<dev.lists.example>"), ("List-Post", "<mailto:dev@lists.example>"),
                ("List-Unsubscribe", "<mailto:leave@lists.example>"), ("Precedence", "list"),
            ]),
            from: MailAddress(name: "Jane", address: "jane@example.org"))
        #expect(!result.isNewsletter)
        #expect(result.reasons.contains("mailing-list discussion (List-Post)"))
        #expect(result.reasons.contains("List-Unsubscribe header"))
    }

    @Test("a person's mail has no signals")
    func person() {
        let result = NewsletterClassifier.classify(
            headers: Self.headers([("Subject", "lunch?")]), from: MailAddress(address: "alice@example.com"),
            gmailLabels: ["INBOX", "CATEGORY_PERSONAL"])
        #expect(result == NewsletterClassification(isNewsletter: false, reasons: []))
    }
}
