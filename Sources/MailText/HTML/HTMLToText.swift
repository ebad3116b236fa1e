import CLibXML2

/// The plain text of an HTML mail body, with and without the quoted history.
public struct HTMLConversion: Sendable, Equatable {
    /// The new part of the message: `fullText` with the quote containers of known mail clients removed.
    /// Never empty when `fullText` is not: if removing quotes leaves nothing, this is `fullText`.
    public var text: String
    /// The whole document as text, quotes included.
    public var fullText: String
    /// Whether quote removal changed the text (a quote container was removed and some visible text went with it).
    public var removedQuotes: Bool

    /// Creates a conversion result.
    public init(text: String, fullText: String, removedQuotes: Bool) {
        self.text = text
        self.fullText = fullText
        self.removedQuotes = removedQuotes
    }
}

/// Converts HTML mail bodies to plain text for chat bubbles, by walking the libxml2 DOM (never by regex).
///
/// Block elements break lines (`</div>` too: Gmail's HTML is div-based), lists get "• " or "1. ",
/// table rows become lines with cells joined by " | ", links read `text (url)`, images `[image: alt]`, hidden
/// content (preheaders, `display:none`, …) and tracking pixels produce nothing, and `&nbsp;` is a plain space.
///
/// ```swift
/// let result = HTMLToText.convert(#"<div>Sounds good!</div><div class="gmail_quote">On Mon, Bob wrote: …</div>"#)
/// // result.text == "Sounds good!", result.removedQuotes == true
/// ```
public enum HTMLToText {
    /// Converts one HTML document; the libxml2 document lives only for the length of this call.
    public static func convert(_ html: String) -> HTMLConversion {
        guard let document = HTMLDocument(parsing: html), let body = document.body else {
            return HTMLConversion(text: "", fullText: "", removedQuotes: false)
        }
        let fullText = TextExtractor.text(under: body)
        guard QuoteContainers.remove(under: body) else {
            return HTMLConversion(text: fullText, fullText: fullText, removedQuotes: false)
        }
        let text = TextExtractor.text(under: body)
        if text.isEmpty {
            // Never an empty bubble: a message that is only a quote (a bare forward) shows the quote.
            return HTMLConversion(text: fullText, fullText: fullText, removedQuotes: false)
        }
        return HTMLConversion(text: text, fullText: fullText, removedQuotes: text != fullText)
    }
}
