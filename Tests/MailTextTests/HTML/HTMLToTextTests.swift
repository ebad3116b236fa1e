import MailText
import Testing

@Suite struct HTMLToTextTests {
    func text(_ html: String) -> String { HTMLToText.convert(html).fullText }

    @Test(
        "breaks lines at blocks and separates paragraphs by one blank line",
        arguments: [
            ("<div>one</div><div>two</div>", "one\ntwo"),  // Gmail writes each line as a div
            ("<p>one</p><p>two</p>", "one\n\ntwo"),  // paragraphs
            ("<h1>Title</h1>body", "Title\n\nbody"),  // headings
            ("one<br>two<br><br>three", "one\ntwo\n\nthree"),  // br, and br br as a blank line
            ("<div>one<br></div><div>two</div>", "one\ntwo"),  // trailing br in a block adds nothing
            ("<p>a</p><br><br><br><p>b</p>", "a\n\nb"),  // at most one blank line in a row
            ("<div><div><div>deep</div></div>after</div>", "deep\nafter"),  // nested blocks
            ("<blockquote>q</blockquote>x", "q\nx"),  // blockquote
            ("a<hr>b", "a\n\nb"),  // rule (libxml2 puts the text after it in an implied paragraph)
            ("<dl><dt>term</dt><dd>def</dd></dl>", "term\ndef"),  // definition list
            ("<section>s</section><article>a</article><header>h</header><footer>f</footer>", "s\na\nh\nf"),  // semantic
            ("<div>a</div><div>&nbsp;</div><div>b</div>", "a\n\nb"),  // a block of only nbsp is a blank line
            ("<p>a</p><p><span>&nbsp;</span></p><p>b</p>", "a\n\nb"),  // never more than one blank line
            ("<div>a&nbsp;</div><div>b</div>", "a\nb"),  // a trailing nbsp after text is not a blank line
            // ordinary spaces and empty blocks show nothing
            ("<div>a</div><div> </div><div></div><div>b</div>", "a\nb"),
        ])
    func blocks(html: String, expected: String) {
        #expect(self.text(html) == expected)
    }

    @Test(
        "collapses whitespace like a browser",
        arguments: [
            ("<p>  many   spaces\n\tand\nnewlines  </p>", "many spaces and newlines"),  // runs become one space
            ("<div>  edge  </div>", "edge"),  // trimmed at block edges
            ("a&nbsp;b", "a b"),  // nbsp is a plain space
            ("<b>bold</b> <i>italic</i>", "bold italic"),  // inline elements keep the space between
            ("<span>no</span><span>space</span>", "nospace"),  // and add none
            ("x&#8203;y", "xy"),  // zero-width space
        ])
    func whitespace(html: String, expected: String) {
        #expect(self.text(html) == expected)
    }

    @Test("keeps pre whitespace exactly")
    func preformatted() {
        #expect(
            self.text("<p>code:</p><pre>  let x = 1\n\n\n    y   z</pre><p>end</p>")
                == "code:\n\n  let x = 1\n\n\n    y   z\n\nend")
    }

    @Test(
        "writes bullets, numbers and indented nested lists",
        arguments: [
            ("<ul><li>a</li><li>b</li></ul>", "• a\n• b"),  // bullets
            ("<ol><li>a</li><li>b</li></ol>", "1. a\n2. b"),  // numbers
            ("<ol start=\"4\"><li>a</li><li>b</li></ol>", "4. a\n5. b"),  // start attribute
            ("<ul><li>a<ul><li>a1</li><li>a2</li></ul></li><li>b</li></ul>", "• a\n  • a1\n  • a2\n• b"),  // nesting
            ("<p>before</p><ul><li>x</li></ul><p>after</p>", "before\n\n• x\n\nafter"),  // lists between paragraphs
        ])
    func lists(html: String, expected: String) {
        #expect(self.text(html) == expected)
    }

    @Test(
        "writes table rows as lines with cells joined by a bar",
        arguments: [
            ("<table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>", "a | b\nc | d"),  // grid
            (
                "<table><tr><th>Name</th><th>Qty</th></tr><tr><td>Apple</td><td>3</td></tr></table>",
                "Name | Qty\nApple | 3"
            ),  // header
            // layout
            ("<table><tr><td>only cell</td></tr></table><table><tr><td>next</td></tr></table>", "only cell\nnext"),
            ("<table><tr><td></td><td>x</td><td>&nbsp;</td></tr></table>", "x"),  // empty spacer cells add nothing
            ("<table><tr><td><p>block</p></td><td>after</td></tr></table>", "block\n\nafter"),  // block cells break
        ])
    func tables(html: String, expected: String) {
        #expect(self.text(html) == expected)
    }

    @Test(
        "writes links as text and target",
        arguments: [
            // shown target
            ("<a href=\"https://example.com/page\">the page</a>", "the page (https://example.com/page)"),
            ("<a href=\"https://example.com/\">example.com</a>", "example.com"),  // text is the URL
            // same URL
            ("<a href=\"https://www.example.com\">https://www.example.com/</a>", "https://www.example.com/"),
            ("<a href=\"mailto:bob@example.com\">bob@example.com</a>", "bob@example.com"),  // same address
            ("<a href=\"mailto:bob@example.com\">Bob</a>", "Bob (bob@example.com)"),  // named address
            ("<a href=\"#top\">top</a>", "top"),  // in-message fragment
            ("<a href=\"javascript:alert(1)\">x</a>", "x"),  // script target never shown
            ("<a href=\"https://example.com\"></a>y", "y"),  // empty link shows nothing
        ])
    func links(html: String, expected: String) {
        #expect(self.text(html) == expected)
    }

    @Test(
        "writes images by alt text and skips tracking pixels",
        arguments: [
            ("<img src=\"cid:a\" alt=\"Chart\">", "[image: Chart]"),  // alt text
            ("a<img src=\"cid:a\" alt=\"\">b", "ab"),  // empty alt
            ("a<img src=\"cid:a\">b", "ab"),  // no alt
            ("a <img src=\"https://t.example/p.gif\" width=\"1\" height=\"1\" alt=\"pixel\">b", "a b"),  // pixel
        ])
    func images(html: String, expected: String) {
        #expect(self.text(html) == expected)
    }

    @Test(
        "drops hidden content",
        arguments: [
            "<div style=\"display:none\">hidden</div>",  // display none
            "<div style=\"DISPLAY: NONE !important\">hidden</div>",  // case and !important
            "<span style=\"visibility:hidden\">hidden</span>",  // visibility
            "<span style=\"font-size:0\">hidden</span>",  // zero font size
            "<span style=\"font-size:0px\">hidden</span>",  // zero font size in px
            "<div style=\"max-height:0;overflow:hidden\">hidden</div>",  // collapsed
            "<div style=\"mso-hide:all\">hidden</div>",  // Outlook-only hiding
            "<div style=\"opacity:0\">hidden</div>",  // transparent
            "<div hidden>hidden</div>",  // hidden attribute
            "<script>hidden()</script><style>p{}</style><title>hidden</title>",  // never text
            "<!-- hidden -->",  // comments
        ])
    func hidden(html: String) {
        #expect(self.text("<p>shown</p>" + html) == "shown")
    }

    @Test("decodes entities")
    func entities() {
        #expect(self.text("&lt;b&gt; &amp; &eacute;&#233;&#x1F642; &quot;") == "<b> & éé🙂 \"")
    }

    @Test("keeps the innermost text of a 400-level nested chain (XML_PARSE_HUGE)")
    func deepNesting() {
        let depth = 400
        let html =
            String(repeating: "<blockquote><div>", count: depth) + "innermost words"
            + String(repeating: "</div></blockquote>", count: depth)
        let result = HTMLToText.convert("<p>top</p>" + html)
        #expect(result.fullText.contains("innermost words"))
        #expect(HTMLSanitizer().sanitize(html).contains("innermost words"))
    }

    @Test("does not damage text that contains 'on'", arguments: ["onion", "once upon a time", "On Monday we won"])
    func onWords(word: String) {
        #expect(self.text("<div>\(word)</div>") == word)
    }
}

@Suite struct QuoteRemovalTests {
    @Test(
        "removes the quote containers of known mail clients",
        arguments: [
            // Gmail
            (
                "<div dir=ltr>new</div><div class=\"gmail_quote\"><div class=gmail_attr>On Mon, Bob wrote:</div><blockquote class=gmail_quote>old</blockquote></div>",
                "new"
            ),
            // Gmail 2024 markup
            ("<div>new</div><div class=\"gmail_quote gmail_quote_container\">old</div>", "new"),
            // Apple Mail: attribution div before the cite blockquote
            (
                "<div>new</div><div>On 5 Jun 2024, at 18:40, Frank wrote:</div><blockquote type=\"cite\">old</blockquote>",
                "new"
            ),
            // Apple Mail iOS: attribution inside the blockquote
            (
                "new<div><br><blockquote type=\"cite\">On 5 Jun, Frank wrote:<br><br></blockquote></div><blockquote type=\"cite\">old</blockquote>",
                "new"
            ),
            // Thunderbird
            (
                "<p>new</p><div class=\"moz-cite-prefix\">On 1/1/24 Bob wrote:<br></div><blockquote type=\"cite\" cite=\"mid:x\">old</blockquote>",
                "new"
            ),
            // Yahoo
            ("<div>new</div><div class=\"yahoo_quoted\">old</div>", "new"),
            // ProtonMail
            ("<div>new</div><div class=\"protonmail_quote\">old</div>", "new"),
            // Outlook on the web: header and everything after
            (
                "<div>new</div><div id=\"appendonsend\"></div><hr><div id=\"divRplyFwdMsg\"><b>From:</b> Bob</div><div>old</div><p>older</p>",
                "new"
            ),
            // Outlook desktop: bordered header wrapped in a div, quote after the wrapper
            (
                "<div class=WordSection1><p>new</p><div><div style=\"border:none;border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0in 0in 0in\"><p><b>From:</b> Bob</p></div></div><p>old</p></div>",
                "new"
            ),
            // Outlook 2003
            (
                "<div>new</div><div class=OutlookMessageHeader>-----Original Message-----<br>From: Bob</div><div>old</div>",
                "new"
            ),
        ])
    func removesQuotes(html: String, expected: String) {
        let result = HTMLToText.convert(html)
        #expect(result.text == expected)
        #expect(result.removedQuotes)
        #expect(result.fullText.contains("old"))
    }

    @Test("keeps the whole text when the message is only a quote (never an empty bubble)")
    func neverEmpty() {
        let result = HTMLToText.convert(
            "<div class=\"gmail_quote\">---------- Forwarded message ---------<br>hello</div>")
        #expect(result.text == result.fullText)
        #expect(result.text.contains("hello"))
        #expect(!result.removedQuotes)
    }

    @Test("reports no removal when there is no quote")
    func noQuote() {
        let result = HTMLToText.convert(
            "<p>On Monday I wrote: nothing</p><blockquote>a plain quote stays</blockquote><p>because text follows it</p>"
        )
        #expect(result.text == result.fullText)
        #expect(!result.removedQuotes)
        #expect(result.text.contains("a plain quote stays"))
    }

    @Test("converts the Gmail reply fixture")
    func gmailFixture() throws {
        let result = HTMLToText.convert(try HTMLFixtures.load("gmail-reply"))
        #expect(result.text == "Sounds good, see you on Thursday!\n\nThe onion soup place is fine by me.\n\n--\nAnna")
        #expect(result.removedQuotes)
        #expect(result.fullText.contains("Shall we meet on Thursday at noon?"))
        #expect(result.fullText.contains("On Mon, 3 Jun 2024 at 10:15, Bob Example <bob@example.com> wrote:"))
    }

    @Test("converts the Outlook reply fixture")
    func outlookFixture() throws {
        let result = HTMLToText.convert(try HTMLFixtures.load("outlook-reply"))
        #expect(result.text == "Thanks Carol, the numbers look right.\nI'll send the final version tomorrow.")
        #expect(result.removedQuotes)
        #expect(result.fullText.contains("Hi Dan, attached are the Q2 numbers."))
    }

    @Test("converts the Apple Mail reply fixture")
    func appleMailFixture() throws {
        let result = HTMLToText.convert(try HTMLFixtures.load("apple-mail-reply"))
        #expect(result.text == "Perfect, I’ll bring the cake.\n\nLiebe Grüße,\nEve")
        #expect(result.removedQuotes)
        #expect(result.fullText.contains("Can someone bring a cake on Saturday?"))
    }

    @Test("converts the newsletter fixture without its preheader, layout separators or pixel")
    func newsletterFixture() throws {
        let result = HTMLToText.convert(try HTMLFixtures.load("newsletter"))
        let expected = """
            [image: Cooking Weekly]

            Three new recipes

            Hello friend,

            This week we cook onion tart, lentil soup and a quick salad.

            • Onion tart
            • Lentil soup
            • Green salad

            Read the recipes (https://example.com/recipes?utm_source=newsletter)

            You get this mail because you subscribed. Unsubscribe (https://example.com/unsubscribe)
            """
        #expect(result.text == expected)
        #expect(!result.removedQuotes)
        #expect(!result.text.contains("This week: three"))
        #expect(!result.text.contains("|"))
    }
}
