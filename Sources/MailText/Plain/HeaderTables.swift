/// The localized words of reply and forward headers, in one place: the keys of Outlook's header block, the
/// phrases of "-----Original Message-----" separators and of forward markers.
///
/// Where they come from: Outlook's (desktop, web, mobile) reply header in each interface language ("Von:",
/// "Gesendet:", "An:", "Betreff:"…, 45 languages); Thunderbird's `mailnews.reply_header_originalmessage` and
/// `mailnews.forward_header_originalmessage` strings per locale ("-------- Oprindelig meddelelse --------");
/// Gmail's "---------- Forwarded message ---------" per interface language; Apple Mail's "Begin forwarded
/// message:" per language; and the separators of older Outlook, Outlook Express, AOL and phone clients
/// ("-----Original Message-----", "---- Reply Message ----", "-------- Original message --------"), and Zimbra's
/// ("----- Mail original -----").
/// Everything is lowercased; lookups lowercase the text.
enum HeaderTables {
    /// Header keys by role. "De"/"Da"/"Van"/"Od" are From, "A"/"À"/"An"/"Do" are To, "Data"/"Datum" are dates.
    static let keys: [(HeaderKey, [String])] = [
        (
            .from,
            [
                "from", "von", "de", "da", "van", "fra", "från", "lähettäjä", "od", "feladó", "de la", "от", "від",
                "kimden", "από", "từ", "보낸 사람", "差出人", "送信者", "发件人", "寄件者", "מאת", "من", "المرسل", "dari",
                "expéditeur", "remitente", "mittente", "afzender", "absender", "šalje", "saatja", "nuo", "no", "од",
                "frá",
                "daripada", "nork", "จาก", "प्रेषक", "از",
            ]
        ),
        (
            .sent,
            [
                "sent", "date", "gesendet", "datum", "envoyé", "envoyé le", "date d'envoi", "enviado", "enviado el",
                "enviado em", "enviada em", "enviada", "fecha", "inviato", "data", "verzonden", "sendt", "dato",
                "skickat", "lähetetty", "päivämäärä", "päiväys", "wysłano", "wysłane", "odesláno", "odoslané", "dátum",
                "elküldve", "küldve", "trimis", "отправлено", "дата", "надіслано", "gönderildi", "gönderim", "tarih",
                "στάλθηκε", "ημερομηνία", "enviat", "đã gửi", "ngày", "보낸 날짜", "날짜", "送信日時", "日付", "发送时间",
                "日期", "寄件日期", "時間", "נשלח", "תאריך", "تاريخ الإرسال", "التاريخ", "أرسلت", "dikirim", "tanggal",
                "изпратено", "poslano", "poslato", "послато", "saadetud", "išsiųsta", "nosūtīts", "dihantar", "noiz",
                "ส่ง",
                "भेजा गया", "ارسال شده",
            ]
        ),
        (
            .to,
            [
                "to", "an", "à", "a", "para", "aan", "til", "till", "vastaanottaja", "do", "komu", "címzett", "către",
                "кому", "kime", "προς", "per a", "đến", "받는 사람", "宛先", "收件人", "收件者", "אל", "إلى", "kepada",
                "до", "prima", "za", "за", "adressaat", "kam", "nori", "ถึง", "प्रति", "به",
            ]
        ),
        (
            .cc,
            [
                "cc", "bcc", "kopie", "copie", "copia", "cc.", "kopi", "kopia", "kopio", "dw", "kópia", "másolatot kap",
                "копия", "копія", "bilgi", "κοιν.", "참조", "抄送", "副本", "עותק", "نسخة", "копие", "kopija", "koopia", "kp",
                "สำเนาถึง",
            ]
        ),
        (
            .subject,
            [
                "subject", "betreff", "objet", "asunto", "oggetto", "onderwerp", "assunto", "emne", "ämne", "aihe",
                "temat", "předmět", "predmet", "tárgy", "subiect", "тема", "konu", "θέμα", "assumpte", "tema", "chủ đề",
                "제목", "件名", "主题", "主旨", "נושא", "الموضوع", "subjek", "perihal", "относно", "teema", "tēma", "zadeva",
                "efni", "perkara", "gaia", "เรื่อง", "विषय", "موضوع",
            ]
        ),
        (.replyTo, ["reply-to", "antwort an", "répondre à", "responder a"]),
    ]

    /// Phrases between the dashes of a separator above the quoted original, matched as a prefix.
    static let originalMessage: [String] = [
        "original message", "reply message", "original-nachricht", "originalnachricht", "ursprüngliche nachricht",
        "antwort nachricht", "ursprüngliche mail", "message d'origine", "message d’origine", "message original",
        "mail original", "mail d'origine", "e-mail original", "mensaje original",
        "messaggio originale", "oorspronkelijk bericht", "origineel bericht", "mensagem original",
        "ursprungligt meddelande", "originalmeddelande", "oprindelig meddelelse", "opprinnelig melding",
        "opphavleg melding", "alkuperäinen viesti", "oryginalna wiadomość", "wiadomość oryginalna",
        "treść oryginalnej wiadomości", "původní zpráva", "pôvodná správa", "eredeti üzenet", "mesajul original",
        "mesaj original", "исходное сообщение", "оригинальное сообщение", "исходное письмо", "початкове повідомлення",
        "оригінальне повідомлення", "özgün i̇leti", "orijinal mesaj", "orijinal i̇leti", "αρχικό μήνυμα",
        "missatge original", "thư gốc", "tin nhắn gốc", "원본 메시지", "元のメッセージ", "原始邮件", "原始郵件", "原始消息",
        "原始訊息", "הודעה מקורית", "الرسالة الأصلية", "الرسالة الأصليَّة", "pesan asli", "pesan orisinal",
    ]

    /// Phrases between the dashes of a forward separator, matched as a prefix.
    static let forwardedMessage: [String] = [
        "forwarded message", "weitergeleitete nachricht", "message transféré", "mensaje reenviado",
        "messaggio inoltrato", "doorgestuurd bericht", "mensagem encaminhada", "mensagem reencaminhada",
        "vidarebefordrat meddelande", "videresendt meddelelse", "videresendt melding", "vidaresend melding",
        "välitetty viesti", "przekazana wiadomość", "treść przekazanej wiadomości", "přeposlaná zpráva",
        "preposlaná správa", "továbbított üzenet", "mesaj redirecționat", "mesaj redirecţionat",
        "пересылаемое сообщение", "перенаправленное сообщение", "переслане повідомлення", "i̇letilen i̇leti",
        "iletilen ileti", "προωθημένο μήνυμα", "missatge reenviat", "tin nhắn đã được chuyển tiếp", "전달된 메시지",
        "転送されたメッセージ", "转发的邮件", "转发的消息", "轉寄郵件", "轉寄的郵件", "הודעה שהועברה", "رسالة ممرّرة",
        "الرسالة المعاد توجيهها", "pesan diteruskan", "pesan yang diteruskan",
    ]

    /// Apple Mail's "Begin forwarded message:" and its translations, colon removed.
    static let forwardIntroductions: [String] = [
        "begin forwarded message", "anfang der weitergeleiteten nachricht", "début du message réexpédié",
        "début du message transféré", "inicio del mensaje reenviado", "inizio messaggio inoltrato",
        "begin doorgestuurd bericht", "início da mensagem reencaminhada", "início da mensagem encaminhada",
        "vidarebefordrat brev", "start på videresendt besked", "videresendt melding", "välitetty viesti alkaa",
        "początek przekazywanej wiadomości", "začátek přeposlané zprávy", "začiatok preposlanej správy",
        "továbbított levél kezdete", "începutul mesajului redirecționat", "начало переадресованного сообщения",
        "початок листа, що пересилається", "i̇letilen ileti başlangıcı", "αρχή προωθημένου μηνύματος",
        "inici del missatge reenviat", "bắt đầu tin nhắn được chuyển tiếp", "전달된 메시지", "転送されたメッセージ",
        "以下是转发的邮件", "转发的邮件", "以下為轉寄的郵件", "轉寄的郵件", "תחילת הודעה שהועברה",
        "بداية الرسالة المُعاد توجيهها", "awal pesan yang diteruskan",
    ]

    /// The subject prefixes of a forward per language ("Fwd:", German "WG:", French "TR:", Spanish "RV:",
    /// Italian "I:", Portuguese "ENC:", Dutch "Doorst:", Finnish "VL:", Swedish "VB:", Polish "PD:"…). Not "VS:":
    /// a forward in Danish and Norwegian, it is a reply in Finnish.
    static let forwardSubjectPrefixes: Set<String> = [
        "fw", "fwd", "wg", "tr", "rv", "i", "enc", "doorst", "vb", "vl", "pd", "továbbítás", "пересл", "πρθ",
        "ilt", "转发", "轉寄", "転送", "전달", "הועבר",
    ]
}
