import Foundation
import MailText
import Testing

/// Subjects and first From addresses of corpus messages, as Python's `email` package (policy.default) decodes
/// them, checked by eye. Rows where Python is wrong carry the correct value and say why.
@Suite struct CorpusSubjectTests {
    @Test("Decodes the subject and From address of corpus messages", arguments: corpusExpectations)
    func decodes(path: String, subject: String, from: String) throws {
        let bytes = try Corpus.bytes(path)
        let (fields, _) = HeaderBlock.parse(bytes[...])
        #expect(fields.first("Subject").map(EncodedWords.decode) == subject)
        #expect(fields.first("From").flatMap { AddressListParser.parse($0).first?.address } == from)
    }
}

/// (corpus path, expected subject, expected first From address); each comment says what the raw header holds.
let corpusExpectations: [(String, String, String)] = [
    ("b4/save-7bit-clean.txt.eml", "Test Sûbject", "8-bit-header-unicodename@example.org"),  // encoded words: utf-8/Q
    // encoded words: utf-8/Q
    ("chatmail-core/mail_with_user_avatar.eml", "Chat: this is a message with a ...", "tunis4@example.org"),
    // encoded words: iso-8859-1/Q
    ("got-your-back/historic-public-mbox_mozillaes-0008.eml", "[MozillaES] Sección noticias", "omgs@escomposlinux.org"),
    (
        "got-your-back/historic-public-mbox_mozillaes-0035.eml", "Re: [MozillaES] Error en la página sobre la lista",
        "omgs@escomposlinux.org"
    ),  // encoded words: iso-8859-1/Q, folded
    (
        "grimoirelab-perceval/tests_data_nntp_nntp_parsing_error.txt.eml", "Re: بعد المغرب السودان",
        "jebnoun.melek@gmail.com"
    ),  // encoded words: windows-1256/Q, folded
    (
        "industrypack-devel-list/01520.eml", "[Industrypack-devel] Prosím kontaktujte",
        "industrypack-devel@lists.sourceforge.net"
    ),  // encoded words: utf-8/Q
    (
        "industrypack-devel-list/01546.eml",
        "Re: [Industrypack-devel]  Explore Colloraboration & Funding Opportunities with MCF",
        "mymashalat.com@mail.a.mcf.seamalaysia.com"
    ),  // encoded words: utf-8/Q, folded
    // encoded words: utf-8/B, folded
    ("industrypack-devel-list/01590.eml", "[Industrypack-devel] 海空双清包税到门，最适合你的物流服务商", "jiaying091@126.com"),
    (
        "industrypack-devel-list/01651.eml", "[Industrypack-devel] MasterCardカード:不正使用疑惑のセキュリティチェック",
        "eufrhyf@mastercard.co.jp"
    ),  // encoded words: utf-8/B, folded
    // encoded words: utf-8/B, folded
    ("industrypack-devel-list/01658.eml", "[Industrypack-devel] MasterCardカード:不正使用疑惑のセキュリティチェック", "com@satofull.co.jp"),
    // encoded words: utf-8/B, folded
    ("industrypack-devel-list/01663.eml", "[Industrypack-devel] MasterCardカード:不正使用疑惑のセキュリティチェック", "com@satofull.co.jp"),
    (
        "industrypack-devel-list/01681.eml", "[Industrypack-devel] 【三井住友カード】ご利用内容のお知らせ",
        "industrypack-devel@lists.sourceforge.net"
    ),  // encoded words: utf-8/B, folded
    // encoded words: utf-8/B, folded
    ("industrypack-devel-list/01694.eml", "[Industrypack-devel] 【 イオンカード 】決済完了のお知らせ", "no-reply@gpj46.com"),
    // encoded words: utf-8/B, utf-8/Q, folded
    ("industrypack-devel-list/01704.eml", "[Industrypack-devel] Bị lừa đảo hơn 10.000 USD?", "info@accountbank.com"),
    (
        "industrypack-devel-list/01727.eml", "[Industrypack-devel] Mailbox is almost full.",
        "industrypack-devel@lists.sourceforge.net"
    ),  // encoded words: utf-8/Q
    (
        "industrypack-devel-list/01734.eml", "[Industrypack-devel] Mailbox is almost full.",
        "industrypack-devel@lists.sourceforge.net"
    ),  // encoded words: utf-8/Q
    (
        "industrypack-devel-list/01741.eml", "[Industrypack-devel] Mailbox is almost full.",
        "industrypack-devel@lists.sourceforge.net"
    ),  // encoded words: utf-8/Q
    (
        "industrypack-devel-list/01746.eml", "[Industrypack-devel] Mailbox is almost full.",
        "industrypack-devel@lists.sourceforge.net"
    ),  // encoded words: utf-8/Q
    (
        "industrypack-devel-list/01752.eml", "[Industrypack-devel] Mailbox is almost full.",
        "industrypack-devel@lists.sourceforge.net"
    ),  // encoded words: utf-8/Q
    // encoded words: us-ascii/Q
    ("jhillyerd-enmime/testdata_mail_qp-ascii-header.raw.eml", "Test QP Subject!", "james@hillyerd.com"),
    (
        "mikel-mail/error_emails_bad_subject.eml", "MySurvey.com:  You have a survey waiting!  91123105",
        "carol@mysurvey.com"
    ),  // Python keeps a trailing space HeaderBlock trims; encoded words: utf-8/B, utf-8/Q, folded
    ("mikel-mail/multi_charset_japanese_iso_2022.eml", "まみむめも", "raasdnil@gmail.com"),  // encoded words: utf-8/B
    // encoded words: iso-2022-jp/B, folded
    ("mikel-mail/rfc2822_example14.eml", "Re: TEST \u{9}テストテスト", "atsushi@example.com"),
    (
        "mnako-letters/test_chinese_multipart_mixed_gbk_over_quoted-printable.txt.eml", "📧 Test 施氏食狮史",
        "alice.fajianren@example.com"
    ),  // encoded words: gbk/Q, utf-8/B, folded
    (
        "mnako-letters/test_chinese_multipart_related_gbk_over_quoted-printable.txt.eml", "📧 Test 施氏食狮史",
        "alice.fajianren@example.com"
    ),  // encoded words: gbk/Q, utf-8/B, folded
    // encoded words: gb18030/B, utf-8/B, folded
    ("mnako-letters/test_chinese_plaintext_gb18030_over_base64.txt.eml", "📧 Test 施氏食狮史", "alice.fajianren@example.com"),
    (
        "mnako-letters/test_english_multipart_mixed_ascii_over_base64.txt.eml", "📧 Test English Pangrams",
        "alice.sender@example.com"
    ),  // encoded words: ascii/B, utf-8/B, folded
    (
        "mnako-letters/test_english_multipart_mixed_utf-8_over_quoted-printable.txt.eml", "📧 Test English Pangrams",
        "alice.sender@example.com"
    ),  // encoded words: utf-8/B, utf-8/Q, folded
    (
        "mnako-letters/test_english_multipart_related_utf-8_over_base64.txt.eml", "📧 Test English Pangrams",
        "alice.sender@example.com"
    ),  // encoded words: utf-8/B, folded
    (
        "mnako-letters/test_english_multipart_signed_utf-8_over_7bit.txt.eml", "📧 Signed Test English Pangrams",
        "alice.sender@example.com"
    ),  // encoded words: utf-8/B, folded
    (
        "mnako-letters/test_english_plaintext_ascii_over_base64.txt.eml", "📧 Test English Pangrams",
        "alice.sender@example.com"
    ),  // encoded words: ascii/B, utf-8/B, folded
    (
        "mnako-letters/test_finnish_multipart_mixed_iso-8859-15_over_base64.txt.eml",
        "📧 Test Suomenkieliset pangrammit", "alice.lahettaja@example.com"
    ),  // encoded words: iso-8859-15/B, utf-8/B, folded
    (
        "mnako-letters/test_finnish_multipart_related_iso-8859-15_over_quoted-printable.txt.eml",
        "📧 Test Suomenkieliset pangrammit", "alice.lahettaja@example.com"
    ),  // encoded words: iso-8859-15/Q, utf-8/B, folded
    (
        "mnako-letters/test_finnish_multipart_signed_iso-8859-15_over_quoted-printable.txt.eml",
        "📧 Signed Test Suomenkieliset pangrammit", "alice.lahettaja@example.com"
    ),  // encoded words: iso-8859-15/Q, utf-8/B, folded
    (
        "mnako-letters/test_finnish_plaintext_utf-8_over_base64.txt.eml", "📧 Test Suomenkieliset pangrammit",
        "alice.lahettaja@example.com"
    ),  // encoded words: utf-8/B, folded
    (
        "mnako-letters/test_icelandic_multipart_mixed_utf-8_over_quoted-printable.txt.eml", "📧 Test Íslenskt pangram",
        "alice.sendandidottir@example.com"
    ),  // encoded words: utf-8/B, utf-8/Q, folded
    (
        "mnako-letters/test_icelandic_multipart_related_utf-8_over_quoted-printable.txt.eml", "📧 Test Íslenskt pangram",
        "alice.sendandidottir@example.com"
    ),  // encoded words: utf-8/B, utf-8/Q, folded
    (
        "mnako-letters/test_icelandic_plaintext_iso-8859-1_over_base64.txt.eml", "📧 Test Íslenskt pangram",
        "alice.sendandidottir@example.com"
    ),  // encoded words: iso-8859-1/B, utf-8/B, folded
    (
        "mnako-letters/test_japanese_multipart_mixed_euc-jp_over_base64.txt.eml", "📧 Test いろは歌",
        "alice.yuubin@example.com"
    ),  // encoded words: euc-jp/B, utf-8/B, folded
    // encoded words: utf-8/B, utf-8/Q, folded
    ("mnako-letters/test_japanese_multipart_mixed_utf-8_over_7bit.txt.eml", "📧 Test いろは歌", "alice.yuubin@example.com"),
    (
        "mnako-letters/test_japanese_multipart_related_iso-2022-jp_over_7bit.txt.eml", "📧 Test いろは歌",
        "alice.yuubin@example.com"
    ),  // encoded words: iso-2022-jp/Q, utf-8/B, folded
    (
        "mnako-letters/test_japanese_multipart_related_utf-8_over_base64.txt.eml", "📧 Test いろは歌",
        "alice.yuubin@example.com"
    ),  // encoded words: utf-8/B, folded
    (
        "mnako-letters/test_japanese_multipart_signed_iso-2022-jp_over_base64.txt.eml", "📧 Signed Test いろは歌",
        "alice.yuubin@example.com"
    ),  // encoded words: iso-2022-jp/B, utf-8/B, folded
    // encoded words: euc-jp/B, utf-8/B, folded
    ("mnako-letters/test_japanese_plaintext_euc-jp_over_base64.txt.eml", "📧 Test いろは歌", "alice.yuubin@example.com"),
    (
        "mnako-letters/test_japanese_plaintext_iso-2022-jp_over_quoted-printable.txt.eml", "📧 Test いろは歌",
        "alice.yuubin@example.com"
    ),  // encoded words: iso-2022-jp/Q, utf-8/B, folded
    (
        "mnako-letters/test_korean_multipart_mixed_euc-kr_over_quoted-printable.txt.eml", "📧 Test 한국어 팬그램",
        "alice.bonaeneunsalam@example.com"
    ),  // encoded words: euc-kr/Q, utf-8/B, folded
    (
        "mnako-letters/test_korean_multipart_related_utf-8_over_base64.txt.eml", "📧 Test 한국어 팬그램",
        "alice.bonaeneunsalam@example.com"
    ),  // encoded words: utf-8/B, folded
    (
        "mnako-letters/test_korean_multipart_signed_utf-8_over_base64.txt.eml", "📧 Signed Test 한국어 팬그램",
        "alice.bonaeneunsalam@example.com"
    ),  // encoded words: utf-8/B, folded
    (
        "mnako-letters/test_korean_plaintext_utf-8_over_quoted-printable.txt.eml", "📧 Test 한국어 팬그램",
        "alice.bonaeneunsalam@example.com"
    ),  // encoded words: utf-8/B, utf-8/Q, folded
    (
        "mnako-letters/test_polish_multipart_related_iso-8859-2_over_base64.txt.eml", "📧 Test Polskie pangramy",
        "alicja.nadajaca@example.com"
    ),  // encoded words: iso-8859-2/B, utf-8/B, folded
    (
        "mnako-letters/test_polish_multipart_signed_iso-8859-2_over_base64.txt.eml", "📧 Signed Test Polskie pangramy",
        "alicja.nadajaca@example.com"
    ),  // encoded words: iso-8859-2/B, utf-8/B, folded
    (
        "mnako-letters/test_polish_plaintext_iso-8859-2_over_quoted-printable.txt.eml", "📧 Test Polskie pangramy",
        "alicja.nadajaca@example.com"
    ),  // encoded words: iso-8859-2/Q, utf-8/B, folded
    (
        "mnako-letters/test_thai_multipart_mixed_tis-620_over_base64.txt.eml", "📧 Test แพนแกรมภาษาไทย",
        "alis.phusngcdhmay@example.com"
    ),  // encoded words: tis-620/B, utf-8/B, folded
    (
        "mnako-letters/test_thai_multipart_related_tis-620_over_base64.txt.eml", "📧 Test แพนแกรมภาษาไทย",
        "alis.phusngcdhmay@example.com"
    ),  // encoded words: tis-620/B, utf-8/B, folded
    (
        "mnako-letters/test_thai_multipart_signed_tis-620_over_quoted-printable.txt.eml",
        "📧 Signed Test แพนแกรมภาษาไทย", "alis.phusngcdhmay@example.com"
    ),  // encoded words: tis-620/Q, utf-8/B, folded
    ("mu/testdir2_bar_cur_mail4.eml", "Re: der bär und das mädchen", "oetzi@web.de"),  // encoded words: iso-8859-1/Q
    // encoded words: iso-8859-1/Q
    ("php-mime-mail-parser/issue133.eml", "Mail avec fichier attaché de 1ko", "name@company.com"),
    (
        "php-mime-mail-parser/m0013.eml", "50032266 CAR 11_MNPA00A01_9PTX_H00 ATT N° 1467829. pdf",
        "firstname.name@groupe-company.com"
    ),  // encoded words: iso-8859-1/Q, folded
    // encoded words: iso-8859-1/Q
    ("redmine/subject_as_iso-8859-1.eml", "Testmail from Webmail: ä ö ü...", "JSmith@somenet.foo"),
    // encoded words: iso-8859-15/Q
    ("request-tracker/t_data_emails_8859-15-message-series_msg3.eml", "test äöüßÄÖÜß€", "pape@inf.fu-berlin.de"),
    // encoded words: iso-8859-1/Q
    ("request-tracker/t_data_emails_nested-rfc-822.eml", "[Jonas Liljegren] Re: [Para] Nivåer?", "jonas@example.com"),
    (
        "spamassassin/t_data_mime-subject.txt.eml", "[Demuseum] Re: Multimedia für Preussen",
        "stefanie.schwabe@wanadoo.fr"
        // encoded words: iso-8859-1/Q; From has an unquoted name before a bare address (Python glues the name into the local part)
    ),
    // encoded words: utf-16/B
    ("spamassassin/t_data_spam_utf16.eml", "Design and manufacturing", "mould05@example.org"),
    // encoded words: utf-8/B, utf-8/Q, folded
    ("usrp-users-list/03137.eml", "Re: [USRP-users]  回复: what is the TPM used for N310", "usrp-users@lists.ettus.com"),
    (
        "usrp-users-list/03149.eml", "Re: [USRP-users]  回复: 回复: what is the TPM used for N310",
        "usrp-users@lists.ettus.com"
    ),  // encoded words: utf-8/B, utf-8/Q, folded
    // encoded words: utf-7/Q
    ("zbateson-mail-mime-parser/m0007.txt.eml", "Die Hasen und die Frösche (Microsoft Outlook 00)", "doug@example.com"),
    (
        "zbateson-mail-mime-parser/m1005.txt.eml", "Die Hasen und die Frösche (Netscape Messenger 4.7)",
        "dwsauder@example.com"
    ),  // encoded words: iso-8859-1/Q
    // encoded words: iso-8859-1/Q
    ("zbateson-mail-mime-parser/m2004.txt.eml", "Die Hasen und die Frösche", "dwsauder@example.com"),
    // encoded words: iso-8859-1/Q
    ("zbateson-mail-mime-parser/m2008.txt.eml", "Die Hasen und die Frösche", "dwsauder@example.com"),
    // encoded words: iso-8859-1/Q
    ("zbateson-mail-mime-parser/m2014.txt.eml", "Die Hasen und die Frösche", "dwsauder@example.com"),
    ("b4/save-8bit-clean.txt.eml", "Test Sûbject", "8-bit-header-unicodename@example.org"),  // raw 8-bit subject
    // raw 8-bit subject
    ("industrypack-devel-list/01540.eml", "[SPAM] Re：industrypack-devel@lists.sourceforge.net", "googbing@yeah.net"),
    // raw 8-bit subject
    ("mailpile/tests-0004.eml", "Testing signatures, raw UTF-8: áéíóúýþæöðÁÉÍÓÚÝÞÆÖÐ", "bre@slinky"),
    // raw 8-bit subject
    ("mikel-mail/attachment_emails_attachment_pdf.eml", "Another PDF with 🎉 Unicode chars in it 🍿", "xxxx@xxxx.com"),
    (
        "mikel-mail/attachment_emails_attachment_pdf_non_ascii.eml", "Another PDF with 🎉 Unicode chars in it 🍿",
        "xxxx@xxxx.com"
    ),  // raw 8-bit subject
    (
        "mikel-mail/error_emails_content_transfer_encoding_empty.eml",
        "4d8119¡@(¤j¸ÉªwÄÑ±M½æ) ¤j®a»¡­^»y ¨C¤éÅ¥MP3 (2004¦~6¤ë¥÷) ÁcÅé¤¤¤å¥úºÐª© (­^»y±Ð¾Ç)¡@8afb90",
        "3712f2@msa.hinet.net"
    ),  // raw 8-bit subject
    // raw 8-bit subject
    ("mikel-mail/error_emails_trademark_character_in_subject.eml", "GA.comô has a lead for you", "j@yahoo-example.com"),
    ("mikel-mail/rfc6532_utf8_headers.eml", "Säying Hello", "jdöe@mächine.example"),  // raw 8-bit subject
    (
        "patchwork/patchwork_tests_data_mail_0014-with-unencoded-utf8-headers-0001.eml",
        "MAINTAINERS: Update entry for BCM5301X ARM to include Rafał Miłecki", "zajec5@gmail.com"
    ),  // raw 8-bit subject
    // plain ASCII subject
    ("b4/naked-cover-bugreport-0001.eml", "widget subsystem corrupts data under load", "reporter@example.com"),
    // plain ASCII subject
    ("b4/trailers-followup-single-ref-ordered.txt.eml", "[PATCH] Simple test", "test@example.com"),
    ("chatmail-core/mail_attach_txt.eml", "hello", "holger@merlinux.eu"),  // plain ASCII subject
    ("cpython-test-email/msg_08.txt.eml", "Lyrics", "barry@python.org"),  // plain ASCII subject
    // plain ASCII subject
    ("got-your-back/google-takeout_takeout-0031.eml", "Re: Should ufw block access to localhost?", "clanlaw@gmail.com"),
    // plain ASCII subject
    ("got-your-back/historic-public-mbox_sample-0005.eml", "[PATCH] a commit.", "a.u.thor@example.com"),
    (
        "got-your-back/vault-export-mbox_ubuntu_me_u.jaylee.us_0-0050.eml", "Re: A call to drop gnome",
        "stse+debian@fsing.rootsland.net"
    ),  // plain ASCII subject
    (
        "industrypack-devel-list/01603.eml", "[Industrypack-devel] Funding Consultant for your Business growth",
        "info@estipharma.com"
    ),  // plain ASCII subject
    (
        "james-mime4j/core_src_test_resources_mimetools-testmsgs_multi-digest.msg.eml", "Sample digest message",
        "nsb@bellcore.com"
    ),  // plain ASCII subject
    // plain ASCII subject
    ("jhillyerd-enmime/testdata_mail_html-only-inline.raw.eml", "MIME test 1", "james@makita.skynet"),
    // plain ASCII subject
    ("mailgun-flanker/messages_dkim_relaxed.expected.14.eml", "This line has trailing spaces", "joe@example.net"),
    (
        "mikel-mail/attachment_emails_attachment_only_email.eml", "this message JUST contains an attachment",
        "rfinnie@domain.dom"
    ),  // plain ASCII subject
    ("mikel-mail/rfc2822_example01.eml", "Saying Hello", "jdoe@machine.example"),  // plain ASCII subject
    (
        "mimekit/UnitTests_TestData_mbox_content-length.mbox-0020.eml", "Frontier Technologies testing, here's my cert",
        "Ray2@FrontierTech.com"
    ),  // plain ASCII subject
    // plain ASCII subject
    ("mimekit/UnitTests_TestData_mbox_jwz-summary-0056.eml", "Fwd: test of weather", "huntting@advtech.uswest.com"),
    // plain ASCII subject
    ("mimekit/UnitTests_TestData_mbox_jwz-summary-0150.eml", "Another MIME test", "nsb@thumper.bellcore.com"),
    ("mu/testdir4_signed_2_S.eml", "test 123", "skipio@roma.net"),  // plain ASCII subject
    (
        "patchwork/patchwork_tests_data_series_base-no-references-0001.eml",
        "[net,v2,1/2] net: ieee802154: remove explicit set skb->sk", "xiaolou4617@gmail.com"
    ),  // plain ASCII subject
    (
        "patchwork/patchwork_tests_data_series_revision-unlabeled-0005.eml", "[PATCH 2/2] test: Convert to Markdown",
        "stephenfinucane@gmail.com"
    ),  // plain ASCII subject
    // plain ASCII subject
    ("redmine/outlook_web_access_2010_html_only.eml", "Upgrade Redmine to 3.0.x", "jsmith@somenet.foo"),
    (
        "request-tracker/t_data_gnupg_emails_6-signed-inline-with-binary.txt.eml", "Test Email ID:6",
        "rt-test@example.com"
    ),  // plain ASCII subject
    // plain ASCII subject
    ("spamassassin/t.rules_BOUNCE_MESSAGE_fp-bug5882-att4297.eml", "IDE-update report", "virusupdates@mail.ijs.si"),
    // plain ASCII subject
    ("spamassassin/t_data_dkim_test-fail-06.msg.eml", "test message (should fail) 6", "test@sa-test.spamassassin.org"),
    // plain ASCII subject
    ("spamassassin/t_data_nice_dkim_MultipleReceived_08.eml", "GM - Very Promising Beginning", "mickey@dkim.org"),
    (
        "spamassassin/t_data_spam_dmarc_nodmarc.eml", "Google News Alert - spamassassin",
        "newsalerts-noreply@dnsbltest.spamassassin.org"
    ),  // plain ASCII subject
    ("spamscope-mail-parser/mail_test_14.eml", "Test", "example@example.com"),  // plain ASCII subject
    (
        "thunderbird-android/legacy_core_src_test_resources_autocrypt_rsa2048-broken-base64.eml", "an INBOME RSA test",
        "alice@testsuite.autocrypt.org"
    ),  // plain ASCII subject
    // plain ASCII subject
    ("usrp-users-list/03153.eml", "Re: [USRP-users] Ettus N310: Tuning in GNU Radio", "usrp-users@lists.ettus.com"),
    // plain ASCII subject
    ("usrp-users-list/03475.eml", "Re: [USRP-users] twinrx consistent phase offset", "usrp-users@lists.ettus.com"),
    // plain ASCII subject
    ("usrp-users-list/03627.eml", "Re: [USRP-users] Fwd: E310: Change MAC Address?", "usrp-users@lists.ettus.com"),
    // Python is wrong on the next row: it leaves the word encoded because strict ISO-2022-JP lacks NEC row 13 (①).
    ("redmine/subject_japanese_3.eml", "① 丸数字テスト", "JSmith@somenet.foo"),  // encoded words: iso-2022-jp/B
]
