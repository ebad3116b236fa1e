/// The table from charset labels found in mail to the names glibc's iconv opens.
///
/// Labels in the wild are lower/upper case, quoted, carry quoted-printable residue (`3diso-8859-1`) or use
/// vendor spellings (`ks_c_5601-1987`). Where a label names a subset of a richer charset, the superset is
/// chosen (GB2312 → GB18030, Shift_JIS → CP932, EUC-KR → CP949) because senders routinely use its extra
/// characters while declaring the subset.
enum CharsetAliases {
    /// Exact labels (already lowercased and trimmed) and their iconv names.
    static let table: [String: String] = [
        "utf-8": "UTF-8", "utf8": "UTF-8", "unicode-1-1-utf-8": "UTF-8",
        "us-ascii": "US-ASCII", "ascii": "US-ASCII", "ansi_x3.4-1968": "US-ASCII", "us": "US-ASCII",
        "iso646-us": "US-ASCII", "ansi_x3.4-1986": "US-ASCII", "646": "US-ASCII",
        "latin1": "ISO-8859-1", "latin-1": "ISO-8859-1", "l1": "ISO-8859-1", "iso-ir-100": "ISO-8859-1",
        "ks_c_5601-1987": "CP949", "ks_c_5601": "CP949", "ks_c_5601-1989": "CP949", "euc-kr": "CP949",
        "euckr": "CP949", "cp949": "CP949", "uhc": "CP949", "korean": "CP949", "windows-949": "CP949",
        "gb2312": "GB18030", "gbk": "GB18030", "gb18030": "GB18030", "cp936": "GB18030", "x-gbk": "GB18030",
        "euc-cn": "GB18030", "csgb2312": "GB18030", "chinese": "GB18030", "windows-936": "GB18030",
        "gb_2312-80": "GB18030",
        "windows-874": "CP874", "tis-620": "CP874", "iso-8859-11": "CP874", "cp874": "CP874",
        "tis620": "CP874", "x-windows-874": "CP874", "iso8859-11": "CP874",
        "x-mac-cyrillic": "MACCYRILLIC", "mac-cyrillic": "MACCYRILLIC", "maccyrillic": "MACCYRILLIC",
        "x-mac-ukrainian": "MACCYRILLIC",
        "unicode-1-1-utf-7": "UTF-7", "utf-7": "UTF-7", "utf7": "UTF-7", "x-unicode-2-0-utf-7": "UTF-7",
        "shift_jis": "CP932", "shift-jis": "CP932", "sjis": "CP932", "x-sjis": "CP932", "ms_kanji": "CP932",
        "cp932": "CP932", "windows-31j": "CP932", "csshiftjis": "CP932",
        "euc-jp": "EUC-JP-MS", "x-euc-jp": "EUC-JP-MS", "eucjp": "EUC-JP-MS", "ujis": "EUC-JP-MS",
        "iso-2022-jp": "ISO-2022-JP-2", "iso-2022-jp-2": "ISO-2022-JP-2", "csiso2022jp": "ISO-2022-JP-2",
        "iso-2022-jp-3": "ISO-2022-JP-3",
        "big5": "BIG5-HKSCS", "big5-hkscs": "BIG5-HKSCS", "x-x-big5": "BIG5-HKSCS", "cn-big5": "BIG5-HKSCS",
        "csbig5": "BIG5-HKSCS",
        "koi8-r": "KOI8-R", "koi8r": "KOI8-R", "cskoi8r": "KOI8-R", "koi8-u": "KOI8-U", "koi8-ru": "KOI8-RU",
        "utf-16": "UTF-16", "utf-16le": "UTF-16LE", "utf-16be": "UTF-16BE", "unicode": "UTF-16",
        "ucs-2": "UTF-16", "utf-32": "UTF-32", "utf-32le": "UTF-32LE", "utf-32be": "UTF-32BE",
    ]

    /// Normalizes a raw label: trims whitespace and quotes, lowercases, drops quoted-printable residue (`3d…=22`),
    /// a doubled `charset=` and a `*lang` suffix.
    static func normalize(_ label: String) -> String {
        var text = Substring(label.lowercased())
        let junk: Set<Character> = [" ", "\t", "\r", "\n", "\"", "'", ";", ","]
        while let first = text.first, junk.contains(first) { text = text.dropFirst() }
        while let last = text.last, junk.contains(last) { text = text.dropLast() }
        // `charset=3Diso-8859-1`: a quoted-printable `=3D` whose `=` was consumed as the parameter's own.
        if text.hasPrefix("charset=") { text = text.dropFirst(8) }
        if text.hasPrefix("3d"), text.count > 2 { text = text.dropFirst(2) }
        // More quoted-printable residue after the label: `=22` (a quote), `=E2=80=9D`, a soft break `=`.
        if let equals = text.firstIndex(of: "=") { text = text[..<equals] }
        // RFC 2231 §5 allows `charset*language` in encoded words.
        if let star = text.firstIndex(of: "*") { text = text[..<star] }
        return String(text)
    }

    /// Rewrites the families whose numbers vary in spelling (`iso8859_1`, `windows1252`, `cp-1251`).
    static func familyName(_ label: String) -> String? {
        let compact = label.filter { $0 != "-" && $0 != "_" && $0 != " " }
        if compact.hasPrefix("iso8859"), let number = Int(compact.dropFirst(7)), (1...16).contains(number) {
            return number == 11 ? "CP874" : "ISO-8859-\(number)"
        }
        for prefix in ["windows", "xcp", "cp", "win"] where compact.hasPrefix(prefix) {
            if let number = Int(compact.dropFirst(prefix.count)), (1250...1258).contains(number) {
                return "CP\(number)"
            }
        }
        return nil
    }
}
