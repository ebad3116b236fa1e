import MailText
import Testing

@Suite struct HTMLSanitizerTests {
    let sanitizer = HTMLSanitizer()

    @Test(
        "removes dangerous elements together with their content",
        arguments: [
            "<script>alert(1)</script>",  // script runs code
            "<style>body{background:url(x)}</style>",  // style rules reach beyond the message
            "<iframe src=\"https://evil.example\">frame text</iframe>",  // embedded document
            "<frameset><frame src=\"x\"></frameset>",  // frames
            "<embed src=\"x.swf\">",  // plugin content
            "<input type=\"text\" value=\"input text\">",  // form control without text of its own
            "<meta http-equiv=\"refresh\" content=\"0;url=https://evil.example\">",  // redirect
            "<base href=\"https://evil.example/\">",  // rebases every relative URL
            "<link rel=\"stylesheet\" href=\"https://evil.example/x.css\">",  // remote stylesheet
            "<template>template text</template>",  // inert content
            "<title>title text</title>",  // metadata
            "<video src=\"x.mp4\">video fallback</video><audio>audio fallback</audio>",  // fallbacks never shown
            "<xml><o:OfficeDocumentSettings>Normal 0 false</o:OfficeDocumentSettings></xml>",  // Office metadata
        ])
    func removesElementWithContent(html: String) {
        let output = self.sanitizer.sanitize("<p>kept</p>" + html + "<p>after</p>")
        #expect(output == "<p>kept</p><p>after</p>")
    }

    @Test("removes the head and its contents")
    func removesHead() {
        let output = self.sanitizer.sanitize(
            "<html><head><title>T</title><style>p{}</style><meta charset=utf-8></head><body><p>Body</p></body></html>")
        #expect(output == "<p>Body</p>")
    }

    @Test("removes comments, including Outlook conditional comments")
    func removesComments() {
        let output = self.sanitizer.sanitize(
            "<p>a<!-- secret --></p><!--[if mso]><table><tr><td>mso only</td></tr></table><![endif]--><p>b</p>")
        #expect(output == "<p>a</p><p>b</p>")
    }

    @Test("removes processing instructions")
    func removesProcessingInstructions() {
        let output = self.sanitizer.sanitize("<p>a<?php echo 1; ?>b</p>")
        #expect(!output.contains("php"))
        #expect(output.contains("a"))
        #expect(output.contains("b"))
    }

    @Test("unwraps unknown elements and keeps their text")
    func unwrapsUnknown() {
        let output = self.sanitizer.sanitize(
            "<p><o:p>Office</o:p> <custom-tag>custom</custom-tag> <label>label</label></p>")
        #expect(output == "<p>Office custom label</p>")
        #expect(self.sanitizer.sanitize(output) == output)
    }

    @Test("renames semantic blocks to div")
    func renamesSemanticBlocks() {
        #expect(self.sanitizer.sanitize("<section>s</section><footer>f</footer>") == "<div>s</div><div>f</div>")
    }

    @Test(
        "drops event handler attributes in any case",
        arguments: [
            "<p onclick=\"x()\">text</p>",  // lowercase
            "<p ONCLICK=\"x()\">text</p>",  // uppercase
            "<p OnMouseOver=\"x()\">text</p>",  // mixed case
            "<p onfoo=\"x()\">text</p>",  // unknown handler name still starts with on
            "<p title=\"t\" onload=\"x()\" onerror='y()'>text</p>",  // several, mixed with an allowed one
        ])
    func dropsEventHandlers(html: String) {
        let output = self.sanitizer.sanitize(html)
        #expect(!output.lowercased().contains(" on"))
        #expect(!output.contains("x()"))
        #expect(output.contains(">text</p>"))
    }

    @Test(
        "drops attributes that are not on the allow-list",
        arguments: [
            ("<img src=\"cid:a\" srcset=\"https://evil.example/x.png 2x\">", "srcset"),  // loads remote images
            ("<a href=\"https://ok.example\" formaction=\"https://evil.example\">x</a>", "formaction"),  // form target
            ("<a xlink:href=\"javascript:alert(1)\">x</a>", "xlink"),  // SVG-style link
            ("<div data-foo=\"bar\">x</div>", "data-foo"),  // data attributes
            ("<div id=\"main\">x</div>", "id"),  // DOM clobbering in the viewer
            ("<td background=\"https://evil.example/bg.png\">x</td>", "background"),  // remote image load
        ])
    func dropsUnknownAttributes(html: String, attribute: String) {
        let output = self.sanitizer.sanitize(html)
        #expect(!output.contains(attribute + "="))
        #expect(output.contains("x") || output.contains("cid:a"))
    }

    @Test("keeps allow-listed attributes, including class")
    func keepsAllowedAttributes() {
        let output = self.sanitizer.sanitize(
            "<td colspan=\"2\" class=\"gmail_quote\" align=\"center\" title=\"t\">cell</td>")
        #expect(output.contains("colspan=\"2\""))
        #expect(output.contains("class=\"gmail_quote\""))
        #expect(output.contains("align=\"center\""))
        #expect(output.contains("title=\"t\""))
    }

    static let obfuscatedJavaScript: [String] = [
        "javascript:alert(1)",  // plain
        "JaVaScRiPt:alert(1)",  // mixed case
        "&#106;avascript:alert(1)",  // decimal entity (libxml2 decodes it)
        "&#x6A;avascript:alert(1)",  // hex entity
        "&#106&#97&#118&#97&#115&#99&#114&#105&#112&#116&#58alert(1)",  // entities without semicolons
        "java\tscript:alert(1)",  // tab inside the scheme
        "java&#9;script:alert(1)",  // tab as an entity
        "java&#10;script:alert(1)",  // newline as an entity
        "java&#0;script:alert(1)",  // NUL as an entity
        "  \n javascript:alert(1)",  // leading spaces and newlines
        "&#x20;javascript:alert(1)",  // leading space as an entity
        "javascript&#58;alert(1)",  // colon as an entity
        "vbscript:msgbox(1)",  // another script scheme
        "javascript%3Aalert(1)",  // percent-encoded colon: a relative URL, dropped too
        "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",  // data: document
    ]

    @Test("drops obfuscated script URLs in links", arguments: obfuscatedJavaScript)
    func dropsScriptLinks(url: String) {
        let output = self.sanitizer.sanitize("<a href=\"\(url)\">click me</a>")
        #expect(!output.lowercased().contains("script"))
        #expect(!output.contains("href"))
        #expect(output.contains("click me"))
    }

    @Test("drops obfuscated script URLs in image sources", arguments: obfuscatedJavaScript)
    func dropsScriptImages(url: String) {
        let output = HTMLSanitizer(options: .init(blockRemoteImages: false))
            .sanitize("<p>before<img src=\"\(url)\" alt=\"pic\">after</p>")
        #expect(!output.lowercased().contains("script"))
        #expect(!output.contains("src="))
        #expect(output.contains("before"))
        #expect(output.contains("after"))
    }

    @Test("libxml2 decodes entities in attribute values before the scheme check")
    func entitiesAreDecoded() {
        let output = self.sanitizer.sanitize("<a href=\"&#104;ttps://ok.example/\">ok</a>")
        #expect(output.contains("href=\"https://ok.example/\""))
    }

    @Test(
        "keeps safe links and opens them outside the message",
        arguments: [
            ("https://example.com/a?b=1", true),  // https
            ("HTTP://example.com/", true),  // scheme case does not matter
            ("mailto:bob@example.com", true),  // mail address
            ("#section-2", false),  // in-message fragment: no target
        ])
    func keepsSafeLinks(url: String, external: Bool) {
        let output = self.sanitizer.sanitize("<a href=\"\(url)\" target=\"_top\">link</a>")
        #expect(output.contains("href=\"\(url)\""))
        #expect(output.contains("target=\"_blank\" rel=\"noopener noreferrer\"") == external)
        #expect(!output.contains("_top"))
    }

    @Test(
        "drops relative links: mail has no base URL",
        arguments: [
            "/path/page.html",  // absolute path
            "page.html",  // relative path
            "//evil.example/x",  // protocol-relative
            "ftp://example.com/file",  // scheme not on the list
        ])
    func dropsRelativeLinks(url: String) {
        let output = self.sanitizer.sanitize("<a href=\"\(url)\">link</a>")
        #expect(output == "<a>link</a>")
    }

    @Test(
        "drops dangerous CSS declarations and keeps safe ones",
        arguments: [
            "background-image: url(https://t.example/x.png)",  // remote load
            "background: URL( 'https://t.example/x.png' )",  // property not allowed, value loads too
            "width: expression(alert(1))",  // old IE script
            "behavior: url(x.htc)",  // old IE behaviour
            "-moz-binding: url(x.xml#xss)",  // old Firefox binding
            "color: red @import 'x.css'",  // import smuggled into a value
            "color: \\72 ed",  // backslash escape
            "color: re/**/d",  // comment inside a value
            "position: fixed",  // overlays the viewer
            "border: 1px solid url(x)",  // allowed property, forbidden value
            "font-family: javascript:alert(1)",  // script URL in a value
        ])
    func filtersCSS(declaration: String) {
        let output = self.sanitizer.sanitize("<p style=\"font-weight: bold; \(declaration)\">styled</p>")
        #expect(output == "<p style=\"font-weight: bold\">styled</p>")
    }

    @Test("drops a style attribute when nothing in it survives")
    func dropsEmptyStyle() {
        #expect(self.sanitizer.sanitize("<p style=\"position:absolute; top:0\">x</p>") == "<p>x</p>")
    }

    @Test("keeps display:none so hidden content stays hidden")
    func keepsDisplayNone() {
        let output = self.sanitizer.sanitize("<div style=\"display:none;max-height:0\">preheader</div>")
        #expect(output == "<div style=\"display: none; max-height: 0\">preheader</div>")
    }

    @Test(
        "removes tracking pixels",
        arguments: [
            "<img src=\"https://cdn.example/p.gif\" width=\"1\" height=\"1\">",  // 1x1 attributes
            "<img src=\"https://cdn.example/p.gif\" width=\"0\" height=\"0\">",  // 0x0 attributes
            "<img src=\"https://cdn.example/p.gif\" height=\"1px\">",  // one side given in px
            "<img src=\"https://cdn.example/p.gif\" style=\"width:1px;height:1px\">",  // size in CSS
            "<img src=\"https://cdn.example/p.gif\" style=\"display:none\">",  // hidden by CSS
            "<img src=\"https://cdn.example/p.gif\" style=\"visibility:hidden\">",  // hidden by CSS
            "<img src=\"https://mailtrack.io/trace/mail/abc.png\">",  // Mailtrack
            "<img src=\"https://x.us1.list-manage.com/track/open.php?u=1\">",  // Mailchimp
            "<img src=\"https://u1.sendgrid.net/wf/open?upn=1\">",  // SendGrid
            "<img src=\"https://mandrillapp.com/track/open.php?u=1\">",  // Mandrill
            "<img src=\"https://www.google-analytics.com/collect?v=1\">",  // Google Analytics
            "<img src=\"https://t.yesware.com/t/abc.png\">",  // Yesware
            "<img src=\"https://track.hubspot.com/__ptq.gif\">",  // HubSpot
            "<img src=\"https://app.mixmax.com/api/track/v2/abc\">",  // Mixmax
            "<img src=\"https://r.superhuman.com/abc.gif\">",  // Superhuman
            "<img src=\"https://pixel.example.com/p\">",  // pixel.* host
            "<img src=\"https://open.example.com/open.aspx?id=1\">",  // open.* tracking path
            "<img src=\"https://click.example.com/track/o/1\">",  // click.* tracking path
            "<img src=\"https://emltrk.com/abc.gif\">",  // emltrk
        ])
    func removesTrackingPixels(html: String) {
        for options in [HTMLSanitizer.Options(blockRemoteImages: true), .init(blockRemoteImages: false)] {
            let output = HTMLSanitizer(options: options).sanitize("<p>Hello \(html)world</p>")
            #expect(output == "<p>Hello world</p>")
        }
    }

    @Test("keeps ordinary images from tracker-like hosts without tracking paths")
    func keepsOrdinaryImages() {
        let output = HTMLSanitizer(options: .init(blockRemoteImages: false))
            .sanitize("<img src=\"https://click.example.com/logo.png\" width=\"120\">")
        #expect(output.contains("src=\"https://click.example.com/logo.png\""))
    }

    @Test("blocks remote images by default and keeps inline cid: images")
    func blocksRemoteImages() {
        let output = self.sanitizer.sanitize(
            "<img src=\"https://cdn.example/logo.png?u=reader42\" alt=\"Logo\"><img src=\"http://CDN.example:8080/a.png\"><img src=\"cid:part1@x\">"
        )
        #expect(
            output
                == #"<img alt="Logo" data-blocked-host="cdn.example"><img data-blocked-host="cdn.example"><img src="cid:part1@x">"#
        )
    }

    @Test(
        "a blocked image keeps no trace of its URL, only its host",
        arguments: [
            #"<img src="https://t.example/open/reader42.png?id=99" width="200">"#,  // a src
            #"<img data-blocked-src="https://t.example/open/reader42.png?id=99" width="200">"#,  // the older marker
        ])
    func blockedImageHasNoURL(html: String) {
        let output = self.sanitizer.sanitize(html)
        #expect(!output.contains("reader42"))
        #expect(!output.contains("id=99"))
        #expect(!output.contains("/open"))
        #expect(!output.contains("data-blocked-src"))
        #expect(output == #"<img width="200" data-blocked-host="t.example">"#)
    }

    @Test(
        "keeps only a plain host in data-blocked-host",
        arguments: [
            (#"<img data-blocked-host="cdn.example">"#, #"<img data-blocked-host="cdn.example">"#),  // our own marker
            (#"<img data-blocked-host="cdn.example/p?id=1">"#, "<img>"),  // a URL posing as a host
            (#"<img data-blocked-host="a b" alt="x">"#, #"<img alt="x">"#),  // not a host at all
        ])
    func validatesBlockedHost(html: String, expected: String) {
        #expect(self.sanitizer.sanitize(html) == expected)
    }

    @Test("loads remote images when blocking is off")
    func allowsRemoteImages() {
        let output = HTMLSanitizer(options: .init(blockRemoteImages: false))
            .sanitize("<img src=\"https://cdn.example/logo.png\">")
        #expect(output == "<img src=\"https://cdn.example/logo.png\">")
    }

    @Test("drops data: image sources")
    func dropsDataImages() {
        let output = HTMLSanitizer(options: .init(blockRemoteImages: false))
            .sanitize("<p>x<img src=\"data:image/png;base64,iVBORw0KGgo=\" alt=\"d\"></p>")
        #expect(!output.contains("data:"))
        #expect(output.contains("alt=\"d\""))
    }

    @Test("does not touch text that looks like attributes or handlers")
    func leavesTextAlone() {
        let html = "<p>The onion said once upon a time: onclick=\"x\" javascript: is just text</p>"
        let output = self.sanitizer.sanitize(html)
        #expect(output.contains("The onion said once upon a time: onclick=\"x\" javascript: is just text"))
    }

    @Test("writes UTF-8, not entities")
    func writesUTF8() {
        let output = self.sanitizer.sanitize("<p>Grüße 日本 &eacute; 🙂</p>")
        #expect(output == "<p>Grüße 日本 é 🙂</p>")
    }

    @Test("ignores a meta charset: the input is already decoded")
    func ignoresMetaCharset() {
        let output = self.sanitizer.sanitize(
            "<html><head><meta charset=\"iso-8859-1\"></head><body><p>Grüße</p></body></html>")
        #expect(output == "<p>Grüße</p>")
    }

    @Test("gives empty output for empty input")
    func emptyInput() {
        #expect(self.sanitizer.sanitize("") == "")
        #expect(self.sanitizer.sanitize("<script>x</script>") == "")
    }

    @Test(
        "is stable: sanitizing twice gives the same string",
        arguments: [
            "<p onclick=x>Hi <b>there</b><img src=\"https://cdn.example/a.png\" width=\"50\"></p>",  // blocked image
            // unwrap
            "<div><custom>one <o:p>two</o:p></custom> three</div><a href=\"https://x.example\" rel=\"x\">l</a>",
            "<table><tr><td style=\"color:red;position:fixed\">c</td></tr></table><section>s</section>",  // CSS, rename
            "<p>Grüße<br>日本</p><ul><li>a<li>b</ul><!-- c --><blockquote type=cite>q</blockquote>",  // UTF-8, lists
        ])
    func isIdempotent(html: String) {
        let once = self.sanitizer.sanitize(html)
        #expect(self.sanitizer.sanitize(once) == once)
    }

    @Test("is stable on the realistic fixtures", arguments: HTMLFixtures.names)
    func isIdempotentOnFixtures(name: String) throws {
        let html = try HTMLFixtures.load(name)
        for options in [HTMLSanitizer.Options(blockRemoteImages: true), .init(blockRemoteImages: false)] {
            let sanitizer = HTMLSanitizer(options: options)
            let once = sanitizer.sanitize(html)
            let twice = sanitizer.sanitize(once)
            #expect(twice == once)
            #expect(!once.contains("<script"))
        }
    }
}
