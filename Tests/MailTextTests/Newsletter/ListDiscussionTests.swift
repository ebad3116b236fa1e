import Foundation
import MailText
import Testing

/// Mailing-list discussions against newsletters that carry the same list headers.
@Suite struct ListDiscussionTests {
    static func classify(_ pairs: [(String, String)], from: String, labels: [String] = []) -> NewsletterClassification {
        NewsletterClassifier.classify(
            headers: NewsletterClassifierTests.headers(pairs), from: AddressListParser.parse(from).first,
            gmailLabels: labels)
    }

    /// A vger-style list: List-Id, X-Mailing-List and Precedence: bulk, but no List-Post.
    static let vger: [(String, String)] = [
        ("List-Id", "<netdev.vger.kernel.org>"), ("X-Mailing-List", "netdev@vger.kernel.org"), ("Precedence", "bulk"),
        ("List-Unsubscribe", "<mailto:majordomo@vger.kernel.org?body=unsubscribe%20netdev>"),
    ]

    @Test("a post written to a list without List-Post is a discussion")
    func writtenToList() {
        let result = Self.classify(
            Self.vger + [("To", "Dave <davem@example.net>"), ("Cc", "NetDev@vger.kernel.org")],
            from: "Florian <f.fainelli@example.com>")
        #expect(!result.isNewsletter)
        #expect(
            result.reasons == [
                "List-Unsubscribe header", "List-Id without List-Post", "Precedence: bulk",
                "written to the list (netdev@vger.kernel.org)",
            ])
    }

    @Test("a reply within a list is a discussion, even when not addressed to the list")
    func replyWithinList() {
        let result = Self.classify(
            Self.vger + [("To", "bob@example.org"), ("In-Reply-To", "<cover.1@example.com>")],
            from: "alice@example.com")
        #expect(!result.isNewsletter)
        #expect(result.reasons.last == "reply within a mailing list (In-Reply-To)")
    }

    @Test(
        "the list's address also comes from X-BeenThere, or from an owner or bounce Sender",
        arguments: [
            ("X-BeenThere", "team@lists.example.org"), ("Sender", "owner-team@lists.example.org"),
            ("Sender", "team-bounces@lists.example.org"), ("Sender", "Team <team-request@lists.example.org>"),
        ])
    func listAddressSources(name: String, value: String) {
        let result = Self.classify(
            [(name, value), ("Precedence", "bulk"), ("To", "team@lists.example.org")], from: "bob@example.org")
        #expect(!result.isNewsletter)
        #expect(result.reasons == ["Precedence: bulk", "written to the list (team@lists.example.org)"])
    }

    @Test("a newsletter with list headers is still a newsletter: addressed to the subscriber, replying to nothing")
    func newsletter() {
        let result = Self.classify(
            [
                ("List-Id", "<39123123-1bbqxpy.t.shop.example>"), ("List-Unsubscribe", "<https://shop.example/u>"),
                ("List-Unsubscribe-Post", "List-Unsubscribe=One-Click"), ("Precedence", "bulk"),
                ("To", "me@example.org"),
            ],
            from: "Shop <offers@shop.example>")
        #expect(result.isNewsletter)
        #expect(result.reasons == ["List-Unsubscribe header", "List-Id without List-Post", "Precedence: bulk"])
    }

    @Test("List-Post: NO is a read-only list, a newsletter even when addressed to the list's own address")
    func readOnlyList() {
        let result = Self.classify(
            [
                ("List-Id", "<cert-advisory.cert.example>"), ("List-Post", "NO (posting not allowed on this list)"),
                ("To", "cert-advisory@cert.example"),
            ],
            from: "CERT Advisory <cert-advisory@cert.example>")
        #expect(result.isNewsletter)
        #expect(result.reasons == ["read-only list (List-Post: NO)"])
    }

    @Test("an automated sender stays a newsletter when written to a list; a list that accepts posts does not")
    func automatedSender() {
        let notifications = Self.classify(
            Self.vger + [("To", "netdev@vger.kernel.org"), ("In-Reply-To", "<a@b>")], from: "noreply@ci.example")
        #expect(notifications.isNewsletter)
        #expect(notifications.reasons.contains("no-reply sender (noreply@)"))

        let autoReply = Self.classify(
            Self.vger + [("To", "netdev@vger.kernel.org"), ("Auto-Submitted", "auto-generated")],
            from: "bob@example.org")
        #expect(autoReply.isNewsletter)

        let postable = Self.classify(
            [("List-Post", "<mailto:dev@lists.example.org>"), ("Precedence", "bulk")], from: "noreply@ci.example")
        #expect(!postable.isNewsletter)
    }

    @Test("a Gmail Promotions category still overrides list evidence")
    func categoryOverride() {
        let result = Self.classify(
            Self.vger + [("To", "netdev@vger.kernel.org")], from: "bob@example.org",
            labels: ["CATEGORY_PROMOTIONS"])
        #expect(result.isNewsletter)
    }

    @Test("mail that did not come through a list gains nothing from replying or its recipients")
    func notListMail() {
        let result = Self.classify(
            [("Precedence", "bulk"), ("To", "team@example.org"), ("In-Reply-To", "<a@b>")], from: "bob@example.org")
        #expect(result.isNewsletter)
        #expect(result.reasons == ["Precedence: bulk"])
    }

    @Test("an In-Reply-To without a message id is not a reply")
    func bareInReplyTo() {
        let result = Self.classify(
            [("List-Id", "<x.example.org>"), ("In-Reply-To", "someone@example.org")], from: "bob@example.org")
        #expect(result.isNewsletter)
    }
}

/// The classifier on real list mail and real newsletters from the corpus.
@Suite struct NewsletterCorpusTests {
    static func classify(_ path: String) throws -> NewsletterClassification {
        TextPipeline().process(raw: try Corpus.bytes(path)).newsletter
    }

    @Test(
        "list discussions without List-Post are people talking",
        arguments: [
            "patchwork/patchwork_tests_data_series_base-different-versions-0001.eml",  // netdev cover letter
            "patchwork/patchwork_tests_data_series_bugs-multiple-references-0003.eml",  // LKML, Precedence: bulk
            "patchwork/patchwork_tests_data_mail_0010-invalid-charset-0001.eml",  // ezmlm libc-alpha
            "james-mime4j/mbox_src_test_resources_test-1_mbox.rlug-0001.eml",  // Sender: rlug-bounce@
            "mimekit/UnitTests_TestData_mbox_content-length.mbox-0021.eml",  // Sender: owner-smime-dev@
            "mu/testdir4_1252168370_3.14675.cthulhu_2_S.eml",  // a reply on a list
            "usrp-users-list/03003.eml",  // Mailman, List-Post (unchanged: always a discussion)
        ])
    func discussions(path: String) throws {
        let result = try Self.classify(path)
        #expect(!result.isNewsletter, "\(path): \(result.reasons)")
    }

    @Test(
        "real newsletters are still newsletters",
        arguments: [
            "spamassassin/t_data_welcomelists_cert.org.eml",  // List-Post: NO
            "spamassassin/t_data_welcomelists_linuxplanet.eml",
            "spamassassin/t_data_welcomelists_ryanairmail.com.eml",
            "spamassassin/t_data_welcomelists_neat_net_tricks.eml",
            "spamassassin/t_data_nice-0001.eml",  // an announcement list, To: its own other domain
            "chatmail-core/mailinglist_ttline.eml",
            "chatmail-core/mailinglist_dhl.eml",
            "chatmail-core/mailinglist_xt_local_spiegel.eml",
            "php-mime-mail-parser/m0020.eml",
        ])
    func newsletters(path: String) throws {
        let result = try Self.classify(path)
        #expect(result.isNewsletter, "\(path): \(result.reasons)")
    }
}
