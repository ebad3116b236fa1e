/// The words that announce a one-time code, and the words that say a nearby number is something else.
///
/// Phrases are matched on a per-scalar lowercased copy of the text, so indexes line up with the original.
/// A phrase that must start a word ("pin", "otp") says so; the "code" nouns do not, because most
/// languages glue them to their qualifier ("Bestätigungscode", "verificatiecode", "verifieringskod").
struct CodePhrase: Sendable {
    /// The phrase, lowercase.
    var scalars: [Unicode.Scalar]
    /// The phrase must not follow a letter or digit (short words that hide inside others: "pin" in "shopping").
    var wordStart: Bool
    /// The phrase must not be followed by a letter ("pin" in "pinned", "otp" in "otpor").
    var wordEnd: Bool
    /// The original text must be uppercase here: "PIN" and "OTP" are codes, "pin your tab" is not.
    var uppercase: Bool
    /// A bare "code" noun, which qualifiers next to it can turn into a promo code, a postcode or source code.
    var isGenericNoun: Bool

    init(_ text: String, wordStart: Bool = false, wordEnd: Bool = false, uppercase: Bool = false, noun: Bool = false) {
        scalars = Array(text.unicodeScalars)
        self.wordStart = wordStart
        self.wordEnd = wordEnd
        self.uppercase = uppercase
        isGenericNoun = noun
    }
}

enum CodePhrases {
    /// Every phrase, in at least twenty languages. Qualifiers ("verification", "验证") count alone because
    /// services also write "Use 482913 to verify"; "login", "sign-in" and "confirm" do not, because they
    /// introduce user names, order confirmations and dates as often as codes, and every login code mail
    /// also says "code".
    static let all: [CodePhrase] =
        [
            // "code" nouns: English, French, Dutch, German compounds; Iberian, Italian; Nordic, Polish,
            // Turkish ("kodu"); Indonesian, Danish, Norwegian ("kode"); Czech; Finnish; Russian, Ukrainian.
            CodePhrase("code", noun: true), CodePhrase("código", noun: true), CodePhrase("codigo", noun: true),
            CodePhrase("codice", noun: true), CodePhrase("kod", noun: true), CodePhrase("kód", noun: true),
            CodePhrase("koodi", noun: true), CodePhrase("код", noun: true), CodePhrase("κωδικ", noun: true),
            CodePhrase("mã", wordStart: true, wordEnd: true, noun: true),
            CodePhrase("كود", noun: true), CodePhrase("رمز", noun: true), CodePhrase("कोड", noun: true),
            CodePhrase("קוד", noun: true), CodePhrase("รหัส", noun: true),
            // Short uppercase tokens.
            CodePhrase("pin", wordStart: true, wordEnd: true, uppercase: true),
            CodePhrase("otp", wordStart: true, wordEnd: true, uppercase: true),
            CodePhrase("tan", wordStart: true, wordEnd: true, uppercase: true),
            CodePhrase("2fa", wordStart: true, wordEnd: true), CodePhrase("passcode"), CodePhrase("two-factor"),
            CodePhrase("one-time"), CodePhrase("one time"),
            // Qualifiers that mean "verify" or "one-time".
            CodePhrase("verification", wordStart: true), CodePhrase("verify", wordStart: true),
            CodePhrase("bestätigung"), CodePhrase("verifizierung"), CodePhrase("einmal", wordStart: true),
            CodePhrase("vérification"), CodePhrase("usage unique"), CodePhrase("verificación"),
            CodePhrase("verificacion"), CodePhrase("verificação"), CodePhrase("verificacao"),
            CodePhrase("verifica", wordStart: true), CodePhrase("verificatie"), CodePhrase("verifiering"),
            CodePhrase("engångs"), CodePhrase("weryfikac"), CodePhrase("jednorazow"), CodePhrase("подтвержд"),
            CodePhrase("одноразов"), CodePhrase("підтвердж"), CodePhrase("doğrulama"),
            CodePhrase("dogrulama"), CodePhrase("tek kullanımlık"), CodePhrase("verifikasi"),
            CodePhrase("xác minh"), CodePhrase("xác nhận"), CodePhrase("xác thực"), CodePhrase("التحقق"),
            CodePhrase("सत्यापन"), CodePhrase("ओटीपी"),
        ] + cjk

    /// Chinese, Japanese and Korean phrases; these scripts glue words, so no boundary applies.
    static let cjk: [CodePhrase] = [
        "验证码", "驗證碼", "校验码", "校驗碼", "认证码", "認證碼", "确认码", "確認碼", "安全码", "安全碼", "动态密码", "動態密碼",
        "验证", "驗證", "コード", "認証", "確認番号", "ワンタイム", "暗証番号", "パスコード", "인증", "코드", "보안",
    ].map { CodePhrase($0) }

    /// Phrases by first scalar, so the quick scan looks at each scalar of the text once.
    static let byFirstScalar: [Unicode.Scalar: [CodePhrase]] = Dictionary(
        grouping: all, by: { $0.scalars[0] })

    /// For each ASCII scalar, whether a phrase starts with it: most scalars of a text are ASCII and start
    /// none, and this answers for them without hashing into ``byFirstScalar``.
    static let startsPhraseByASCII: [Bool] = (0..<128).map { value in
        byFirstScalar[Unicode.Scalar(UInt8(value))] != nil
    }

    /// For two ASCII scalars in a row (`first << 7 | second`), whether a phrase can start with them. Common
    /// letters start some phrase ("e", "o", "t"), but few pairs do; a one-scalar phrase would allow every
    /// pair after its scalar.
    static let startsPhraseByASCIIPair: [Bool] = {
        var table = [Bool](repeating: false, count: 128 * 128)
        for phrase in all where phrase.scalars[0].isASCII {
            let first = Int(phrase.scalars[0].value) << 7
            if phrase.scalars.count == 1 {
                for second in 0..<128 { table[first | second] = true }
            } else if phrase.scalars[1].isASCII {
                table[first | Int(phrase.scalars[1].value)] = true
            }
        }
        return table
    }()

    /// Stems that, in the word holding a "code" noun or in the word next to it, make it another kind of
    /// code: promo and gift codes, postcodes, source and error codes, order and tracking references.
    static let nounVetoes: [String] = [
        "promo", "coupon", "discount", "voucher", "gift", "rabatt", "gutschein", "réduc", "reduc", "descuento",
        "sconto", "korting", "rabat", "скидк", "промо", "post", "zip", "plz", "bar", "qr", "source", "quell",
        "error", "fehler", "erreur", "status", "exit", "area", "country", "dial", "country", "swift", "sort",
        "bank", "iban", "bic", "tax", "steuer", "product", "produkt", "article", "artikel", "color", "colour",
        "dress", "html", "css", "python", "java", "swift", "review", "unicode", "encode", "decode", "codec",
        "barcode", "referral", "invite", "einladung", "track", "order", "bestell", "commande", "pedido",
        "ordine", "booking", "buchung", "reserv", "ticket", "fonte", "kaynak", "indirim", "kupon", "staff",
        "dress", "embed", "morse", "shortcode", "airport", "flight", "seguimiento", "suivi", "rastre",
        "tracciament", "отслеж", "takip", "sendungs", "autoris", "authoriz", "authoris", "hard", "diagnostic",
    ]

    /// ``nounVetoes`` with the bytes of each that is all ASCII lowercase letters, for a quick byte search.
    static let nounVetoBytes: [(text: String, asciiBytes: [UInt8]?)] = nounVetoes.map { veto in
        (veto, veto.utf8.allSatisfy { $0 >= 0x61 && $0 <= 0x7A } ? Array(veto.utf8) : nil)
    }

    /// Words that, between a code's phrase and the candidate (within a few words of it), say the number
    /// is something else: an order, an invoice, a parcel, a booking, a customer or account.
    static let contextVetoes: [String] = [
        "order", "invoice", "tracking", "shipment", "parcel", "package", "bestellung", "bestellnummer",
        "rechnung", "sendung", "commande", "facture", "colis", "pedido", "factura", "envío", "ordine",
        "fattura", "spedizione", "bestelling", "factuur", "faktura", "zamówien", "заказ", "счёт", "счет",
        "sipariş", "fatura", "注文", "订单", "訂單", "주문", "street", "str.", "straße", "strasse", "avenue",
        "road", "suite", "rue ", "calle", "postcode", "postal", "zip", "plz", "account number", "kontonummer",
        "customer", "kunden", "client", "reference", "booking", "reservation", "ticket", "flight", "phone",
        "telefon", "tel.", "tel:", "fax", "mobile", "seguimiento", "suivi", "rastreamento", "tracciamento",
    ]

    /// Words right before a candidate (one of its two previous words) that make it a reference or a
    /// location, not a code: "ending in 4821", "line 1234", "Build 4821", "Room 12".
    static let nearVetoes: Set<String> = [
        "ending", "ends", "endet", "no", "nr", "n°", "nº", "line", "page", "port", "version", "commit", "issue",
        "error", "build", "patch", "room", "raum", "salle", "id", "ext", "cvv", "iban", "bic", "sku", "model",
        "serial", "art", "row", "seat", "gate", "flight", "entrance", "pr", "rev", "revision", "release", "firmware",
    ]

    /// Words anywhere on a candidate's line or shortly before it that put it in a scene without one-time
    /// codes: a meeting with a dial-in and passcode, or a promotion with a discount code.
    static let sceneVetoes: [String] = [
        "meeting", "conference", "dial-in", "dial in", "webinar", "zoom", "webex", "besprechung", "réunion",
        "reunión", "riunione", "vergadering", "konferenz", "promo", "coupon", "discount", "voucher", "gift card",
        "gutschein", "rabatt", "% off", "% de", "% auf", "% rabatt", "réduction", "descuento", "sconto",
        "korting", "скидк", "indirim", "优惠", "割引", "할인", "wifi", "wi-fi", "wlan", "password:",
    ]

    /// The few words between a phrase and a code that still make the phrase "directly introduce" it.
    static let connectors: Set<String> = [
        "is", "ist", "lautet", "est", "es", "é", "è", "är", "er", "jest", "to", "dir", "your", "yours", "here",
        "below", "der", "dein", "deine", "ihr", "votre", "ton", "tu", "su", "seu", "sua", "il", "tuo", "je",
        "din", "twój", "twoj", "ваш", "твой", "ist:", "adalah", "anda", "của", "bạn", "là", "le", "la",
    ]
}
