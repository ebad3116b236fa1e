"""Outlook's header block and "Original Message" separator per language, for write_cases.py.

Outlook (desktop and web) writes the original's From/Sent/To/Subject above it, each field name in the
user's language; older versions and Outlook Express put a "-----Original Message-----" line first.
"""

from collections import namedtuple

Block = namedtuple("Block", "sender sent date to subject")

OUTLOOK = {
    "en": Block("From", "Sent", "Tuesday, March 5, 2024 10:02 AM", "To", "Subject"),
    "de": Block("Von", "Gesendet", "Dienstag, 5. März 2024 10:02", "An", "Betreff"),
    "fr": Block("De\u00a0", "Envoyé\u00a0", "mardi 5 mars 2024 10:02", "À\u00a0", "Objet\u00a0"),
    "es": Block("De", "Enviado el", "martes, 5 de marzo de 2024 10:02", "Para", "Asunto"),
    "it": Block("Da", "Inviato", "martedì 5 marzo 2024 10:02", "A", "Oggetto"),
    "pt": Block("De", "Enviada em", "terça-feira, 5 de março de 2024 10:02", "Para", "Assunto"),
    "nl": Block("Van", "Verzonden", "dinsdag 5 maart 2024 10:02", "Aan", "Onderwerp"),
    "sv": Block("Från", "Skickat", "den 5 mars 2024 10:02", "Till", "Ämne"),
    "da": Block("Fra", "Sendt", "5. marts 2024 10:02", "Til", "Emne"),
    "nb": Block("Fra", "Sendt", "tirsdag 5. mars 2024 10:02", "Til", "Emne"),
    "fi": Block("Lähettäjä", "Lähetetty", "tiistai 5. maaliskuuta 2024 10.02", "Vastaanottaja", "Aihe"),
    "pl": Block("Od", "Wysłano", "wtorek, 5 marca 2024 10:02", "Do", "Temat"),
    "cs": Block("Od", "Odesláno", "úterý 5. března 2024 10:02", "Komu", "Předmět"),
    "sk": Block("Od", "Odoslané", "utorok 5. marca 2024 10:02", "Komu", "Predmet"),
    "hu": Block("Feladó", "Elküldve", "2024. március 5., kedd 10:02", "Címzett", "Tárgy"),
    "ro": Block("De la", "Trimis", "marți, 5 martie 2024 10:02", "Către", "Subiect"),
    "ru": Block("От", "Отправлено", "5 марта 2024 г. 10:02", "Кому", "Тема"),
    "uk": Block("Від", "Надіслано", "5 березня 2024 р. 10:02", "Кому", "Тема"),
    "bg": Block("От", "Изпратено", "вторник, 5 март 2024 г. 10:02", "До", "Относно"),
    "sr": Block("Od", "Poslato", "utorak, 5. mart 2024. 10:02", "Za", "Tema"),
    "hr": Block("Šalje", "Poslano", "utorak, 5. ožujka 2024. 10:02", "Prima", "Predmet"),
    "sl": Block("Od", "Poslano", "torek, 5. marec 2024 10:02", "Za", "Zadeva"),
    "el": Block("Από", "Στάλθηκε", "Τρίτη, 5 Μαρτίου 2024 10:02 πμ", "Προς", "Θέμα"),
    "tr": Block("Kimden", "Gönderildi", "5 Mart 2024 Salı 10:02", "Kime", "Konu"),
    "ja": Block("差出人", "送信日時", "2024年3月5日 10:02", "宛先", "件名"),
    "zh": Block("发件人", "发送时间", "2024年3月5日 10:02", "收件人", "主题"),
    "zh-TW": Block("寄件者", "寄件日期", "2024年3月5日 上午 10:02", "收件者", "主旨"),
    "ko": Block("보낸 사람", "보낸 날짜", "2024년 3월 5일 화요일 오전 10:02", "받는 사람", "제목"),
    "he": Block("מאת", "נשלח", "יום שלישי 05 מרץ 2024 10:02", "אל", "נושא"),
    "ar": Block("من", "تم الإرسال", "الثلاثاء، 5 مارس، 2024 10:02 ص", "إلى", "الموضوع"),
    "vi": Block("Từ", "Đã gửi", "Thứ Ba, ngày 5 tháng 3 năm 2024 10:02", "Đến", "Chủ đề"),
    "id": Block("Dari", "Dikirim", "Selasa, 05 Maret 2024 10.02", "Kepada", "Perihal"),
    "th": Block("จาก", "ส่ง", "วันอังคารที่ 5 มีนาคม 2024 10:02", "ถึง", "เรื่อง"),
    "ca": Block("De", "Enviat el", "dimarts, 5 de març de 2024 10:02", "Per a", "Assumpte"),
    "et": Block("Saatja", "Saadetud", "teisipäev, 5. märts 2024 10:02", "Adressaat", "Teema"),
    "lv": Block("No", "Nosūtīts", "otrdiena, 2024. gada 5. martā 10:02", "Kam", "Tēma"),
    "lt": Block("Nuo", "Išsiųsta", "2024 m. kovo 5 d., antradienis 10:02", "Kam", "Tema"),
}

# "-----Original Message-----" as Outlook writes it per language.
ORIGINAL_MESSAGE = {
    "en": "-----Original Message-----",
    "de": "-----Ursprüngliche Nachricht-----",
    "fr": "-----Message d'origine-----",
    "es": "-----Mensaje original-----",
    "it": "-----Messaggio originale-----",
    "pt": "-----Mensagem original-----",
    "nl": "-----Oorspronkelijk bericht-----",
    "sv": "-----Ursprungligt meddelande-----",
    "da": "-----Oprindelig meddelelse-----",
    "nb": "-----Opprinnelig melding-----",
    "fi": "-----Alkuperäinen viesti-----",
    "pl": "-----Wiadomość oryginalna-----",
    "cs": "-----Původní zpráva-----",
    "hu": "-----Eredeti üzenet-----",
    "ru": "-----Исходное сообщение-----",
    "tr": "-----Özgün İleti-----",
    "el": "-----Αρχικό μήνυμα-----",
    "zh": "-----原始邮件-----",
    "ko": "-----원본 메시지-----",
}

