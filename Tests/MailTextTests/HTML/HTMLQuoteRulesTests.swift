import MailText
import Testing

/// Quote rules for clients that mark quotes without a class of their own, and the look-alikes that must stay.
///
/// Each removal case has a twin nearby where the same structure is reply text: over-stripping loses what the
/// sender wrote, while under-stripping only shows a quote.
@Suite struct HTMLQuoteRulesTests {
    /// The bubble text the whole pipeline gives for an HTML body (sanitizer, quote rules, text rules).
    func bubble(_ html: String) -> String { TextPipeline().text(ofHTML: html).text }

    @Test(
        "removes a trailing plain or left-bordered blockquote with the attribution above it",
        arguments: [
            // Yandex: attribution block, then a plain blockquote
            (
                "<div>Да, подходит.</div><div> </div><div>03.06.2024, 10:15, \"Иван Петров\" &lt;ivan@yandex.ru&gt;:</div><blockquote><div>Встреча в четверг?</div></blockquote>",
                "Да, подходит."
            ),
            // mail.ru: the attribution and the bordered blockquote share a div, the address is a link
            (
                "<div>Sure, Thursday works.</div><div>&nbsp;</div><div>Понедельник, 3 июня 2024, 10:15 +03:00 от Иван Петров <a href=\"mailto:ivan@mail.ru\">ivan@mail.ru</a>:<br>&nbsp;<blockquote style=\"border-left:1px solid #0857A6; margin:10px; padding:0 0 0 10px;\"><div>Shall we meet on Thursday?</div></blockquote></div>",
                "Sure, Thursday works."
            ),
            // English attribution ending in "wrote:" in the same block as the reply, after a br
            (
                "<div>Thanks!<br><br>On Mon, 3 Jun 2024, Bob &lt;bob@example.com&gt; wrote:<br></div><blockquote>Can you send the file?</blockquote>",
                "Thanks!"
            ),
            // Russian "написал(а):" attribution, quote wrapped in a div
            (
                "<p>Получил, спасибо.</p><p>Иван написал(а):</p><div><blockquote style=\"border-left: 2px solid #ccc; padding-left: 8px\">Файл во вложении.</blockquote></div><br>",
                "Получил, спасибо."
            ),
            // no attribution at all: the quote still goes, the reply stays
            ("<div>Agreed.</div><blockquote><p>Let us ship on Friday.</p></blockquote>", "Agreed."),
        ])
    func removesTrailingQuote(html: String, expected: String) {
        let result = HTMLToText.convert(HTMLSanitizer().sanitize(html))
        #expect(result.text == expected)
        #expect(result.removedQuotes)
        #expect(self.bubble(html) == expected)
    }

    @Test(
        "keeps blockquotes that are not a trailing quote",
        arguments: [
            // interleaved answer: new text after the quote
            "<div>See below.</div><blockquote>Can you come on Friday?</blockquote><div>Yes, I can.</div>",
            // interleaved, with an attribution-like line: still text after the quote
            "<div>On Mon, 3 Jun 2024, Bob &lt;bob@example.com&gt; wrote:</div><blockquote>Lunch?</blockquote><div>Sure, noon.</div>",
            // Gmail's indent: a style without a left border
            "<div>My favourite poem:</div><blockquote style=\"margin:0 0 0 40px;border:none;padding:0px\">The woods are lovely, dark and deep</blockquote>",
            // a border that is switched off
            "<div>Notes:</div><blockquote style=\"border-left: none; margin-left: 20px\">point one</blockquote>",
            // a class that is not a quote marker
            "<div>Our motto:</div><blockquote class=\"pullquote\">Mail should read like a chat</blockquote>",
        ])
    func keepsOtherBlockquotes(html: String) {
        let result = HTMLToText.convert(HTMLSanitizer().sanitize(html))
        #expect(result.text == result.fullText)
        #expect(!result.removedQuotes)
    }

    @Test("leaves reply text above a trailing quote that has no attribution, even when it ends with a colon")
    func keepsColonProse() {
        let html = "<div>Here is what the manual says:</div><blockquote>Restart the router.</blockquote>"
        // The quote goes (it ends the message); the line above it is no attribution: no address, no "wrote".
        #expect(HTMLToText.convert(html).text == "Here is what the manual says:")
    }

    @Test(
        "recognises Gmail's quote classes broken by quoted-printable debris",
        arguments: [
            "<div>new</div><div class=3D\"gmail_quote\">On Mon, Bob wrote:<blockquote>old</blockquote></div>",
            "<div>new</div><div class=3D\"gmail_quote gmail_quote_container\">On Mon, Bob wrote:<blockquote>old</blockquote></div><div>&nbsp;</div>",
            "<div>new</div><blockquote class=3D'gmail_quote' style=3D\"margin:0\">old</blockquote>",
        ])
    func quotedPrintableClasses(html: String) {
        let direct = HTMLToText.convert(html)
        #expect(direct.text == "new")
        #expect(direct.removedQuotes)
        #expect(self.bubble(html) == "new")
    }

    @Test("a class that only looks like debris is not a quote marker")
    func notDebris() {
        let result = HTMLToText.convert("<div>new</div><div class=\"3Dgmail_quotes\">kept</div><p>end</p>")
        #expect(result.text == "new\nkept\n\nend")
    }

    @Test(
        "removes everything after a rule that precedes an Outlook header block, in many languages",
        arguments: [
            "<b>From:</b> Bob<br><b>Sent:</b> Monday, June 3, 2024 10:15<br><b>To:</b> Ann<br><b>Subject:</b> Lunch",
            "<b>Fra:</b> Bob<br><b>Sendt:</b> mandag 3. juni 2024 10:15<br><b>Til:</b> Ann<br><b>Emne:</b> Lunsj",
            "<b>De :</b> Bob<br><b>Envoyé :</b> lundi 3 juin 2024 10:15<br><b>À :</b> Ann<br><b>Objet :</b> Déjeuner",
            "<b>Von:</b> Bob<br><b>Gesendet:</b> Montag, 3. Juni 2024 10:15<br><b>An:</b> Ann<br><b>Betreff:</b> Mittag",
            "<b>Da:</b> Bob<br><b>Inviato:</b> lunedì 3 giugno 2024 10:15<br><b>A:</b> Ann<br><b>Oggetto:</b> Pranzo",
            "<b>Van:</b> Bob<br><b>Verzonden:</b> maandag 3 juni 2024 10:15<br><b>Aan:</b> Ann<br><b>Onderwerp:</b> Lunch",
            "<b>Od:</b> Bob<br><b>Wysłano:</b> poniedziałek, 3 czerwca 2024 10:15<br><b>Do:</b> Ann<br><b>Temat:</b> Obiad",
            "<b>От:</b> Bob<br><b>Отправлено:</b> 3 июня 2024 г. 10:15<br><b>Кому:</b> Ann<br><b>Тема:</b> Обед",
        ])
    func outlookHeaderBlock(header: String) {
        let html =
            "<div>Works for me.</div><hr style=\"display:inline-block;width:98%\"><div dir=\"ltr\"><font face=\"Calibri\">\(header)</font><div>&nbsp;</div></div><div>Lunch on Thursday?</div>"
        let result = HTMLToText.convert(HTMLSanitizer().sanitize(html))
        #expect(result.text == "Works for me.")
        #expect(result.removedQuotes)
        #expect(result.fullText.contains("Lunch on Thursday?"))
        #expect(self.bubble(html) == "Works for me.")
    }

    @Test(
        "removes Hotmail's original after hr#stopSpelling and Outlook's after div#divRplyFwdMsg, through the sanitizer")
    func outlookMarkerIDs() {
        let hotmail =
            "<div>Sounds good.</div><hr id=\"stopSpelling\">Date: Mon, 3 Jun 2024<br>From: bob@hotmail.com<br>Subject: Lunch<br><br>Lunch on Thursday?"
        #expect(self.bubble(hotmail) == "Sounds good.")
        let outlook =
            "<div>Sounds good.</div><div id=3D\"divRplyFwdMsg\"><b>From:</b> Bob</div><div>Lunch on Thursday?</div>"
        #expect(HTMLToText.convert(HTMLSanitizer().sanitize(outlook)).text == "Sounds good.")
    }

    @Test(
        "keeps what follows a rule that is not above a header block",
        arguments: [
            // prose after the rule
            "<div>Part one.</div><hr><div>Part two: from here on, new topics.</div>",
            // a single From line is not a header block
            "<div>Part one.</div><hr><div>From: the desk of the editor</div><div>Part two.</div>",
            // header-like lines that do not start right after the rule
            "<div>Part one.</div><hr><div>Minutes of the meeting</div><div>From: Ann<br>To: Bob<br>Subject: Plan</div>",
        ])
    func keepsTextAfterOtherRules(html: String) {
        let result = HTMLToText.convert(html)
        #expect(result.text == result.fullText)
        #expect(!result.removedQuotes)
    }

    @Test("keeps a Gmail quote container that holds answers between its quotes, or a forwarded message")
    func gmailContainerWithSendersText() {
        let interleaved =
            "<div>Hi Ann, answers below.<br><br><div class=\"gmail_quote\"><blockquote class=\"gmail_quote\">Is the room booked?</blockquote><div>Yes, room 4.</div><br><blockquote class=\"gmail_quote\">Who brings the projector?</blockquote><div>I do.</div></div></div>"
        let result = HTMLToText.convert(HTMLSanitizer().sanitize(interleaved))
        #expect(
            result.text
                == "Hi Ann, answers below.\n\nIs the room booked?\nYes, room 4.\n\nWho brings the projector?\nI do.")
        #expect(!result.removedQuotes)
        let forward =
            "<div>FYI<br><br><div class=\"gmail_quote\"><div class=\"gmail_attr\">---------- Forwarded message ---------<br>From: Ann &lt;ann@example.com&gt;<br>Subject: Slides<br></div><br><div>Can we meet on Tuesday?</div></div></div>"
        let forwarded = HTMLToText.convert(HTMLSanitizer().sanitize(forward))
        #expect(forwarded.text.contains("Can we meet on Tuesday?"))
        #expect(!forwarded.removedQuotes)
    }

    @Test(
        "removes a Gmail quote container whose only text besides its quote is the attribution",
        arguments: [
            "<div>Sure.</div><div class=\"gmail_quote\"><div class=\"gmail_attr\">On Mon, 3 Jun 2024 at 10:15, Bob &lt;bob@example.com&gt; wrote:<br></div><blockquote class=\"gmail_quote\">Lunch?</blockquote></div>",
            "<div>Sure.</div><div class=\"gmail_quote\">On Mon, 3 Jun 2024 at 10:15, Bob &lt;<a href=\"mailto:bob@example.com\">bob@example.com</a>&gt; wrote:<br><blockquote class=\"gmail_quote\">Lunch?</blockquote></div>",
            "<div>Sure.</div><div class=\"gmail_quote\"><br><div><br></div><blockquote class=\"gmail_quote\">Lunch?</blockquote><div>&nbsp;</div></div>",
        ])
    func gmailContainerWithQuoteOnly(html: String) {
        let result = HTMLToText.convert(HTMLSanitizer().sanitize(html))
        #expect(result.text == "Sure.")
        #expect(result.removedQuotes)
    }
}
