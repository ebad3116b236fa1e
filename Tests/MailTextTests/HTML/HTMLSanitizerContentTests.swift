import MailText
import Testing

/// The sanitizer removes markup, not the sender's words: text inside harmless, unknown or merely unsafe
/// elements must survive, and only code, metadata and never-shown fallbacks may take their text with them.
@Suite struct HTMLSanitizerContentTests {
    let sanitizer = HTMLSanitizer()

    /// Harmless markup around the word "keepme": kept, renamed or unwrapped, the word must stay.
    static let harmless: [String] = [
        "<font face=Arial color=red>keepme</font>", "<center>keepme</center>", "<span>keepme</span>",
        "<details><summary>keepme</summary>more</details>", "<details><summary>s</summary>keepme</details>",
        "<figure><img src=cid:x><figcaption>keepme</figcaption></figure>", "<abbr title=t>keepme</abbr>",
        "<mark>keepme</mark>", "<small>keepme</small>", "<sub>keepme</sub>", "<sup>keepme</sup>",
        "<del>keepme</del>", "<ins>keepme</ins>", "<q>keepme</q>", "<cite>keepme</cite>", "<dfn>keepme</dfn>",
        "<dl><dt>keepme</dt><dd>d</dd></dl>", "<dl><dt>t</dt><dd>keepme</dd></dl>", "<address>keepme</address>",
        "<article>keepme</article>", "<section>keepme</section>", "<header>keepme</header>",
        "<footer>keepme</footer>", "<main>keepme</main>", "<nav>keepme</nav>", "<aside>keepme</aside>",
        "<hgroup><h1>keepme</h1></hgroup>", "<table><caption>keepme</caption><tr><td>c</td></tr></table>",
        "<table><thead><tr><th>keepme</th></tr></thead></table>",
        "<table><tbody><tr><td>keepme</td></tr></tbody></table>",
        "<table><tfoot><tr><td>keepme</td></tr></tfoot></table>",
        "<table><colgroup><col span=2></colgroup><tr><td>keepme</td></tr></table>",
        "<ul><li>keepme</li></ul>", "<ol><li>keepme</li></ol>", "<menu><li>keepme</li></menu>",
        "<pre>keepme</pre>", "<code>keepme</code>", "<kbd>keepme</kbd>", "<samp>keepme</samp>", "<var>keepme</var>",
        "<tt>keepme</tt>", "<s>keepme</s>", "<strike>keepme</strike>", "<u>keepme</u>", "<big>keepme</big>",
        "<blockquote>keepme</blockquote>", "<h3>keepme</h3>", "<bdi>keepme</bdi>", "<bdo dir=rtl>keepme</bdo>",
        "<time datetime=2024-01-01>keepme</time>", "<data value=1>keepme</data>", "<ruby>keepme<rt>k</rt></ruby>",
        "<marquee>keepme</marquee>", "<blink>keepme</blink>", "<nobr>keepme</nobr>", "<dialog open>keepme</dialog>",
        "<meter value=1>keepme</meter>", "<progress value=1>keepme</progress>", "<custom-card>keepme</custom-card>",
        "<o:p>keepme</o:p>", "<st1:place>keepme</st1:place>", "<v:textbox>keepme</v:textbox>",
        "<x-unknown>keepme</x-unknown>",
        // unsafe or pointless markup whose text is still the sender's
        "<form action=https://evil.example>keepme</form>", "<form><span>keepme</span></form>",
        "<button type=submit>keepme</button>", "<textarea name=t>keepme</textarea>", "<label for=x>keepme</label>",
        "<select><option>keepme</option></select>",
        "<select><optgroup label=g><option>keepme</option></optgroup></select>",
        "<fieldset><legend>keepme</legend>f</fieldset>", "<output>keepme</output>",
        "<object data=x.swf>keepme</object>", "<object data=x.swf><param name=a value=b>keepme</object>",
        "<applet code=X>keepme</applet>", "<embed src=x.swf><p>keepme</p>", "<noscript>keepme</noscript>",
        "<svg><text>keepme</text></svg>", "<math><mi>keepme</mi></math>",
    ]

    @Test("keeps the text of harmless, unknown and unwrapped elements", arguments: harmless)
    func keepsText(html: String) {
        let output = self.sanitizer.sanitize("<p>before</p>" + html + "<p>after</p>")
        let text = HTMLToText.convert(output).fullText
        #expect(text.contains("keepme"), "\(output)")
        #expect(text.hasPrefix("before") && text.hasSuffix("after"), "\(output)")
        #expect(self.sanitizer.sanitize(output) == output)
    }

    @Test(
        "drops form controls and plugins but keeps their text",
        arguments: [
            (
                "<form action=\"https://evil.example/login\" method=post>Name <input name=user value=v> ok</form>",
                "Name ok"
            ),
            (
                "<p>Press <button onclick=\"steal()\" formaction=\"https://evil.example\">Confirm</button> now</p>",
                "Press Confirm now"
            ),
            ("<textarea name=t rows=3>typed text</textarea>", "typed text"),
            ("<label for=pw>Password</label>", "Password"),
            (
                "<object data=\"https://evil.example/x.swf\" type=\"application/x-shockwave-flash\">Fallback text</object>",
                "Fallback text"
            ),
        ])
    func unwrapsUnsafeMarkup(html: String, text: String) {
        let output = self.sanitizer.sanitize(html)
        for marker in ["<form", "<input", "<button", "<textarea", "<label", "<object", "evil.example", "steal", "user"]
        {
            #expect(!output.contains(marker), "\(marker) in \(output)")
        }
        #expect(HTMLToText.convert(output).fullText == text)
    }

    @Test("keeps the options of a select apart, one per line")
    func selectOptions() {
        let output = self.sanitizer.sanitize(
            "<select name=s><option value=1 selected>First</option><option>Second</option></select>")
        #expect(output == "<div>First</div><div>Second</div>")
    }

    @Test("a button's text does not run into the next word")
    func buttonIsSeparated() {
        let text = HTMLToText.convert(
            self.sanitizer.sanitize("<p><button>Go</button><textarea>typed</textarea>next</p>")
        ).fullText
        #expect(text == "Go typed next")
    }

    @Test("keeps text that follows the end of the body or the document")
    func keepsTextAfterBody() {
        #expect(
            self.sanitizer.sanitize("<html><body><p>inside</p></body>after body</html>after html").contains(
                "after body"))
        #expect(self.sanitizer.sanitize("<html><body><p>inside</p></body></html>after html").contains("after html"))
    }

    @Test(
        "keeps only the ids that mark a quoted original, in their usual spelling",
        arguments: [
            (#"<div id="divRplyFwdMsg">h</div>"#, #"<div id="divRplyFwdMsg">h</div>"#),  // Outlook on the web
            (#"<div id=3D"divRplyFwdMsg">h</div>"#, #"<div id="divRplyFwdMsg">h</div>"#),  // quoted-printable debris
            (#"<hr id="STOPSPELLING">"#, #"<hr id="stopSpelling">"#),  // Hotmail
            (#"<div id="appendonsend"></div>"#, #"<div id="appendonsend"></div>"#),  // Outlook on the web
            (#"<div id="main">m</div>"#, "<div>m</div>"),  // any other id: DOM clobbering in the viewer
        ])
    func keepsMarkerIDs(html: String, expected: String) {
        #expect(self.sanitizer.sanitize(html) == expected)
    }

    @Test(
        "the text converter reads form controls, noscript and plugin fallbacks in raw HTML as the sanitizer keeps them")
    func converterAgrees() {
        let html =
            "<p>a</p><noscript>b</noscript><label>c</label><object data=x>d</object><input value=hidden><script>e</script>"
        #expect(HTMLToText.convert(html).fullText == "a\n\nbcd")
        #expect(HTMLToText.convert(self.sanitizer.sanitize(html)).fullText == "a\n\nbcd")
    }
}
