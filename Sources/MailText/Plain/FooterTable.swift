/// The footers phone and web mail apps append to a message ("Sent from my iPhone"), in one table.
///
/// Where they come from: the default signatures of iOS Mail, Outlook for iOS and Android ("Get Outlook for iOS"
/// and its translations), Samsung Email, Gmail for Android, Yahoo Mail, Windows Mail, BlackBerry (with the
/// carriers' two-line variants), K-9 Mail and a few third-party apps, in each of their interface languages.
///
/// A footer line starts with one of ``prefixes`` (or ends with one of ``suffixes``) AND names a device or an
/// app (``devices``): "Sent from my desk, I can see the whole office." starts like a footer but is prose.
/// Everything is lowercased.
enum FooterTable {
    static let prefixes: [String] = [
        // English
        "sent from ", "sent via ", "sent using ", "sent with ", "sent on ", "sent by ", "sent wirelessly ",
        "get outlook for ", "from my ",
        // German
        "von meinem ", "gesendet von ", "gesendet vom ", "gesendet mit ", "gesendet über ", "diese nachricht wurde ",
        // French
        "envoyé de ", "envoyé depuis ", "envoyé à partir ", "envoyé avec ", "envoyé sans fil ", "obtenir outlook ",
        // Spanish, Catalan
        "enviado desde ", "enviado con ", "enviado a través ", "obtener outlook ", "enviat des ",
        // Italian
        "inviato da ", "inviato dal ", "inviato con ", "scarica outlook ",
        // Dutch
        "verzonden vanaf ", "verzonden met ", "verstuurd vanaf ", "verstuurd met ", "download outlook ",
        // Portuguese
        "enviado do ", "enviado de ", "enviado a partir ", "enviado via ", "obter o outlook ",
        // Danish, Norwegian, Swedish, Finnish
        "sendt fra ", "hent outlook ", "skickat från ", "skickades från ", "hämta outlook ", "lähetetty ",
        "hanki outlook ",
        // Polish, Czech, Slovak, Hungarian, Romanian
        "wysłane z ", "wysłano z ", "pobierz outlook ", "odesláno z ", "odesláno ze ", "odoslané z ", "elküldve ",
        "trimis de pe ", "trimis din ", "trimis cu ",
        // Russian, Ukrainian, Greek, Turkish
        "отправлено с ", "отправлено из ", "отправлено со ", "послано с ", "надіслано з ", "відправлено з ",
        "στάλθηκε από ", "εστάλη από ",
        // Vietnamese, Indonesian, Hebrew, Arabic
        "gửi từ ", "được gửi từ ", "dikirim dari ", "terkirim dari ", "נשלח מ", "أرسلت من ", "مرسل من ",
        "تم الإرسال من ",
        // Chinese
        "发自我的", "从我的", "發自我的", "從我的",
    ]

    /// ``prefixes``, ``suffixes`` and ``devices`` as bytes, for comparing without Characters.
    static let prefixBytes = prefixes.map { Array($0.utf8) }
    static let suffixBytes = suffixes.map { Array($0.utf8) }
    static let deviceBytes = devices.map { Array($0.utf8) }

    /// The first byte of every prefix, and of its forms in brackets ("(sent from a phone)", "<<sent by …>>").
    static let prefixFirstBytes: Set<UInt8> = Set(prefixes.compactMap(\.utf8.first)).union([
        UInt8(ascii: "("), UInt8(ascii: "<"), UInt8(ascii: "["), UInt8(ascii: "*"),
    ])

    /// Footers recognized by their ending: Japanese "iPhoneから送信", Korean "… 에서 보냄", Turkish "iPhone'umdan
    /// gönderildi", Hungarian "iPhone-ról küldve", Chinese "从我的iPhone发送".
    static let suffixes: [String] = [
        "から送信", "から送信しました", "에서 보냄", "에서 보낸 메일", "gönderildi", "küldve", "发送", "傳送", "gesendet",
    ]

    /// Devices, apps and carriers a footer names.
    static let devices: [String] = [
        "iphon", "ipad", "ipod", "apple watch", "android", "blackberry", "samsung", "galaxy", "huawei", "xiaomi",
        "pixel", "nokia", "xperia", "htc", "motorola", "oneplus", "alcatel", "kindle", "surface", "windows",
        "mobile", "mobil", "móvil", "movil", "cellulare", "celular", "cell", "handy", "phone", "telefon",
        "téléphone", "teléfono", "smartphone", "smartfon", "tablet", "device", "gerät", "appareil", "dispositivo",
        "outlook", "mail", "yahoo", "aol", "airmail", "acompli", "superhuman", "spark", "newton", "k-9",
        "телефон", "смартфон", "айфон", "андроид", "планшет", "мобильн", "τηλέφωνο", "κινητό", "điện thoại",
        "ponsel", "휴대폰", "갤럭시", "手机", "手機", "携帯", "אייפון", "הנייד", "الجوال", "آيفون",
    ]

    /// Words of a mailing list's footer, below its rule (Mailman, Google Groups, list servers in other languages).
    static let listFooterWords: [String] = [
        "mailing list", "listinfo", "mailman", "unsubscribe", "dezabonare", "abbestellen", "désabonner",
        "désinscri", "darse de baja", "cancellarsi", "afmelden", "avregistrer",
    ]
}
