/// What may stand between an attribution's verb and its final colon.
struct AttributionTail: OptionSet, Sendable {
    let rawValue: UInt8

    /// Nothing: "… Ann wrote:".
    static let none = AttributionTail(rawValue: 1 << 0)
    /// A date or time (it has a digit): "Ann schrieb am 01.01.2024 um 10:00:", "Ann wrote on 1/1/24 10:00:".
    static let date = AttributionTail(rawValue: 1 << 1)
    /// The author, under a leading word: "Am 01.01.2024 um 10:00 schrieb Ann <ann@x.de>:".
    static let name = AttributionTail(rawValue: 1 << 2)
    /// The author after a date that opens the line: "1. jan. 2024 kl. 10.00 skrev Ann <ann@x.dk>:".
    static let nameAfterDate = AttributionTail(rawValue: 1 << 3)
}

/// One way a client writes the line above the original it quotes: fixed words around free text (date, name,
/// address), which are different in every message and so are not matched at all.
struct AttributionTemplate: Sendable {
    /// Opens the line, case-sensitive ("On ", "Am "); nil when the line opens with free text (a name or a date).
    let lead: String?
    /// The verb phrase, with the space before it when the script uses spaces (" wrote", " a écrit", "写道").
    /// Nil for forms that only have a lead ("נכתב על ידי Ann:").
    let verb: String?
    /// What may follow the verb before the colon.
    let tails: AttributionTail

    /// ``lead`` and ``verb`` as bytes, computed once: matching compares bytes.
    let leadBytes: [UInt8]?
    let verbBytes: [UInt8]?

    init(_ lead: String?, _ verb: String?, _ tails: AttributionTail = .none) {
        self.lead = lead
        self.verb = verb
        self.tails = tails
        leadBytes = lead.map { Array($0.utf8) }
        verbBytes = verb.map { Array($0.utf8) }
    }
}

/// The reply headers mail clients write above a quoted original, in one table.
///
/// Where the forms come from:
/// - Thunderbird: its localized `mailnews.reply_header_authorwrotesingle` ("#1 wrote:"),
///   `reply_header_ondateauthorwrote` ("On #2 #3, #1 wrote:") and `reply_header_authorwroteondate`
///   ("#1 wrote on #2 #3:") strings in each locale's `composeMsgs.properties`.
/// - Gmail: "On <date> <name> <address> wrote:" as its web client writes it in each interface language
///   ("Am Mo., 1. Jan. 2024 um 10:00 Uhr schrieb …:", "<name> kirjoitti ma 1.1.2024 klo 10.00:",
///   "…님이 작성:"); in some languages (Japanese, Russian, Hebrew, Arabic) it is only "<date> <name> <address>:",
///   which ``AttributionPatterns`` recognizes by its shape, not by a word.
/// - Apple Mail (macOS, iOS): "On <date>, at <time>, <name> wrote:" and its translations ("Op … heeft … het
///   volgende geschreven:", "Wiadomość napisana przez … w dniu …:", "…のメール:").
/// - Outlook mobile and Yahoo ("On <date>, <name> wrote:"), Eudora ("At <time>, you wrote:") and Usenet readers
///   ("In article <id>, <name> writes:").
///
/// A lead only counts at the start of the line: "on " inside prose never opens an attribution.
enum AttributionTable {
    static let templates: [AttributionTemplate] = [
        // English
        AttributionTemplate("On ", " wrote"),
        AttributionTemplate("On ", " writes"),
        AttributionTemplate("On ", " sent"),
        AttributionTemplate("At ", " wrote"),
        AttributionTemplate("In article ", " writes"),
        AttributionTemplate("In article ", " wrote"),
        AttributionTemplate("In message ", " writes"),
        // Horde, Roundcube and other webmail: "Quoting Ann <ann@x.org>:", "Zitat von …:"
        AttributionTemplate("Quoting ", nil, [.name]),
        AttributionTemplate("Zitat von ", nil, [.name]),
        AttributionTemplate("Citando ", nil, [.name]),
        AttributionTemplate("Cytuję ", nil, [.name]),
        AttributionTemplate("Citation de ", nil, [.name]),
        AttributionTemplate(nil, " wrote", [.none, .date]),
        AttributionTemplate(nil, " writes"),
        // German
        AttributionTemplate("Am ", " schrieb", [.none, .name]),
        AttributionTemplate("Am ", " geschrieben"),
        AttributionTemplate(nil, " schrieb", [.none, .date]),
        AttributionTemplate(nil, " geschrieben"),  // GMX, web.de: "Ann <ann@x.de> hat am 01.01.2024 10:00 geschrieben:"
        // French
        AttributionTemplate("Le ", " a écrit"),
        AttributionTemplate(nil, " a écrit", [.none, .date]),
        // Spanish, Asturian
        AttributionTemplate("El ", " escribió"),
        AttributionTemplate(nil, " escribió", [.none, .date]),
        // Italian
        AttributionTemplate("Il ", " ha scritto"),
        AttributionTemplate(nil, " ha scritto", [.none, .date]),
        // Portuguese (Brazil and Portugal)
        AttributionTemplate("Em ", " escreveu"),
        AttributionTemplate("Às ", " escreveu"),
        AttributionTemplate(nil, " escreveu", [.none, .date]),
        // Dutch
        AttributionTemplate("Op ", " schreef", [.none, .name]),
        AttributionTemplate("Op ", " het volgende geschreven"),
        AttributionTemplate(nil, " schreef", [.none, .date]),
        // Danish, Swedish, Norwegian (Bokmål and Nynorsk)
        AttributionTemplate("Den ", " skrev", [.none, .name]),
        AttributionTemplate("På ", " skrev", [.none, .name]),
        AttributionTemplate(nil, " skrev", [.none, .date, .nameAfterDate]),
        AttributionTemplate("Den ", " skreiv", [.none, .name]),
        AttributionTemplate(nil, " skreiv", [.none, .date]),
        // Finnish
        AttributionTemplate(nil, " kirjoitti", [.none, .date]),
        // Polish
        AttributionTemplate("W dniu ", " napisał(a)"),
        AttributionTemplate("W dniu ", " napisał"),
        AttributionTemplate("W dniu ", " pisze"),
        AttributionTemplate("Dnia ", " napisał(a)"),
        AttributionTemplate("Dnia ", " napisał"),
        AttributionTemplate("Wiadomość napisana przez ", nil, [.name]),
        AttributionTemplate(nil, " napisał(a)"),
        AttributionTemplate(nil, " napisał"),
        AttributionTemplate(nil, " napisała"),
        AttributionTemplate(nil, " pisze"),
        // Czech
        AttributionTemplate("Dne ", " napsal(a)"),
        AttributionTemplate(nil, " napsal(a)", [.none, .date]),
        AttributionTemplate(nil, " napsal"),
        AttributionTemplate(nil, " napsala"),
        // Slovak
        AttributionTemplate("Dňa ", " napísal(a)"),
        AttributionTemplate(nil, " napísal(a)", [.none, .date]),
        AttributionTemplate(nil, " napísal"),
        // Hungarian: "… írta:", "Ann <…> ezt írta (időpont: 2024. jan. 1., H, 10:00):"
        AttributionTemplate(nil, " írta", [.none, .date]),
        // Romanian
        AttributionTemplate("La ", " a scris"),
        AttributionTemplate("În ", " a scris"),
        AttributionTemplate("Pe ", " a scris"),
        AttributionTemplate(nil, " a scris", [.none, .date]),
        // Russian
        AttributionTemplate(nil, " пишет", [.none, .date]),
        AttributionTemplate(nil, " написал(а)"),
        AttributionTemplate(nil, " написал"),
        AttributionTemplate(nil, " написала"),
        // Ukrainian
        AttributionTemplate(nil, " пише", [.none, .date]),
        AttributionTemplate(nil, " написав(-ла)"),
        AttributionTemplate(nil, " написав"),
        // Bulgarian, Serbian, Croatian, Slovenian, Bosnian
        AttributionTemplate(nil, " написа"),
        AttributionTemplate(nil, " је написао/ла"),
        AttributionTemplate(nil, " је написао"),
        AttributionTemplate(nil, " piše"),
        AttributionTemplate(nil, " napisao je", [.none, .date]),
        AttributionTemplate(nil, " je napisao/la"),
        AttributionTemplate(nil, " je napisal(a)"),
        AttributionTemplate(nil, " napisala"),
        AttributionTemplate(nil, " napisal"),
        // Turkish: "… yazdı:", "… tarihinde şunu yazdı:"
        AttributionTemplate(nil, " yazdı"),
        // Greek
        AttributionTemplate("Στις ", " έγραψε"),
        AttributionTemplate(nil, " έγραψε", [.none, .date]),
        // Catalan
        AttributionTemplate("El ", " va escriure"),
        AttributionTemplate("El ", " ha escrit"),
        AttributionTemplate(nil, " va escriure"),
        AttributionTemplate(nil, " ha escrit", [.none, .date]),
        // Vietnamese
        AttributionTemplate("Vào ", " đã viết"),
        AttributionTemplate(nil, " đã viết", [.none, .date]),
        // Indonesian
        AttributionTemplate("Pada ", " menulis"),
        AttributionTemplate(nil, " menulis", [.none, .date]),
        // Estonian, Latvian, Lithuanian
        AttributionTemplate(nil, " kirjutas", [.none, .date]),
        AttributionTemplate(nil, " rakstīja", [.none, .date]),
        AttributionTemplate(nil, " rašė", [.none, .date]),
        // Korean: Gmail "…<ann@x>님이 작성:", Apple "… 작성:", Thunderbird "… 이(가) 쓴 글:"
        AttributionTemplate(nil, "님이 작성"),
        AttributionTemplate(nil, "님이 작성하였습니다"),
        AttributionTemplate(nil, " 작성"),
        AttributionTemplate(nil, " 쓴 글"),
        // Japanese
        AttributionTemplate(nil, "のメッセージ"),
        AttributionTemplate(nil, "のメール"),
        AttributionTemplate(nil, "は書きました"),
        // Chinese (simplified, traditional)
        AttributionTemplate(nil, "写道"),
        AttributionTemplate(nil, "寫道"),
        AttributionTemplate(nil, " 写于", [.date]),
        // Thai, Hindi, Persian
        AttributionTemplate(nil, " เขียนว่า"),
        AttributionTemplate(nil, " ने लिखा"),
        AttributionTemplate(nil, " نوشت"),
        // Hebrew
        AttributionTemplate("נכתב על ידי ", nil, [.name]),
        AttributionTemplate(nil, " כתב/ה"),
        AttributionTemplate(nil, " כתב"),
        AttributionTemplate(nil, " כתבה"),
        // Arabic
        AttributionTemplate("كتب ", nil, [.name]),
        AttributionTemplate(nil, " كتب", [.none, .nameAfterDate]),
    ]

    /// Every lead as bytes, for finding an attribution that starts in the middle of the reply's last line.
    static let leads: [[UInt8]] = {
        var seen = Set<[UInt8]>()
        return templates.compactMap(\.leadBytes).filter { seen.insert($0).inserted }
    }()

    /// The first byte of every lead: most lines are rejected on it before any lead is compared.
    static let leadFirstBytes: Set<UInt8> = Set(leads.compactMap(\.first))

    /// Words before a period that do not end a sentence inside a name ("Mrs. Ann Smith wrote:").
    static let honorifics: Set<String> = [
        "mr", "mrs", "ms", "dr", "st", "jr", "sr", "prof", "dipl", "ing", "inc", "ltd", "corp", "co", "dott", "sig",
        "sra", "mme", "mlle", "hr", "fr", "hn", "pan", "ir", "mgr",
    ]
}
