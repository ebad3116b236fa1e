/// Reply headers as mail clients write them, per language: the inputs of the attribution tests.
///
/// Gmail and Apple Mail forms carry a date and an address; Thunderbird forms (`reply_header_ondateauthorwrote`
/// or `reply_header_authorwroteondate`) carry a date and a name.
enum AttributionFormats {
    static let gmail: [String] = [
        "On Mon, Jan 1, 2024 at 10:00 AM Ann Smith <ann@example.com> wrote:",  // English
        "Am Mo., 1. Jan. 2024 um 10:00 Uhr schrieb Anna Schmidt <anna@example.de>:",  // German
        "Le lun. 1 janv. 2024 à 10:00, Anne Martin <anne@example.fr> a écrit :",  // French
        "El lun, 1 ene 2024 a las 10:00, Ana García (<ana@example.es>) escribió:",  // Spanish
        "Il giorno lun 1 gen 2024 alle ore 10:00 Anna Rossi <anna@example.it> ha scritto:",  // Italian
        "Em seg., 1 de jan. de 2024 às 10:00, Ana Souza <ana@example.com.br> escreveu:",  // Portuguese (BR)
        "Ana Sousa <ana@example.pt> escreveu (segunda, 1/01/2024 à(s) 10:00):",  // Portuguese (PT)
        "Op ma 1 jan 2024 om 10:00 schreef Anna de Vries <anna@example.nl>:",  // Dutch
        "Den man. 1. jan. 2024 kl. 10.00 skrev Anna Jensen <anna@example.dk>:",  // Danish
        "Den mån 1 jan. 2024 kl 10:00 skrev Anna Svensson <anna@example.se>:",  // Swedish
        "man. 1. jan. 2024 kl. 10:00 skrev Anna Hansen <anna@example.no>:",  // Norwegian
        "Anna Virtanen <anna@example.fi> kirjoitti ma 1.1.2024 klo 10.00:",  // Finnish
        "pon., 1 sty 2024 o 10:00 Anna Nowak <anna@example.pl> napisał(a):",  // Polish
        "po 1. 1. 2024 v 10:00 odesílatel Anna Nováková <anna@example.cz> napsal:",  // Czech
        "po 1. 1. 2024 o 10:00 Anna Horváthová <anna@example.sk> napísal(a):",  // Slovak
        "Anna Kovács <anna@example.hu> ezt írta (időpont: 2024. jan. 1., H, 10:00):",  // Hungarian
        "пн, 1 янв. 2024 г. в 10:00, Анна Иванова <anna@example.ru>:",  // Russian
        "пн, 1 січ. 2024 р. о 10:00 Анна Шевченко <anna@example.ua> пише:",  // Ukrainian
        "Ayşe Yılmaz <ayse@example.com.tr>, 1 Oca 2024 Pzt, 10:00 tarihinde şunu yazdı:",  // Turkish
        "Στις Δευ 1 Ιαν 2024 στις 10:00, ο/η Άννα Παππά <anna@example.gr> έγραψε:",  // Greek
        "El dl., 1 de gen. 2024 a les 10:00, Anna Puig (<anna@example.cat>) va escriure:",  // Catalan
        "Vào Th 2, 1 thg 1, 2024 vào lúc 10:00 Nguyễn An <an@example.vn> đã viết:",  // Vietnamese
        "2024년 1월 1일 (월) 오전 10:00, 김민지 <minji@example.kr>님이 작성:",  // Korean
        "2024年1月1日(月) 10:00 山田太郎 <taro@example.jp>:",  // Japanese
        "张三 <zhang@example.cn> 于2024年1月1日周一 10:00写道：",  // Chinese (simplified)
        "王小明 <wang@example.tw> 於 2024年1月1日 週一 上午10:00寫道：",  // Chinese (traditional)
        // Hebrew
        "\u{202B}בתאריך יום ב׳, 1 בינו׳ 2024 ב-10:00 מאת \u{202A}דנה כהן\u{202C}\u{200F} <\u{202A}dana@example.co.il\u{202C}\u{200F}>:\u{202C}",
        // Arabic
        "\u{202B}في الاثنين، 1 يناير 2024 في 10:00 ص تمت كتابة ما يلي بواسطة \u{202A}ليلى\u{202C}\u{200F} <\u{202A}layla@example.sa\u{202C}\u{200F}>:\u{202C}",
        "Pada tanggal Sen, 1 Jan 2024 pukul 10.00 Siti Rahayu <siti@example.co.id> menulis:",  // Indonesian
        "În lun., 1 ian. 2024 la 10:00, Ana Popescu <ana@example.ro> a scris:",  // Romanian
    ]

    static let thunderbird: [String] = [
        "On 01/01/2024 10:00, Ann Smith wrote:",  // English
        "Ann Smith wrote on 01/01/2024 10:00:",  // English, author first
        "Am 01.01.24 um 10:00 schrieb Anna Schmidt:",  // German
        "Anna Schmidt schrieb am 01.01.24 um 10:00:",  // German, author first
        "Le 01/01/2024 à 10:00, Anne Martin a écrit :",  // French
        "El 1/1/24 a las 10:00, Ana García escribió:",  // Spanish
        "Il 01/01/24 10:00, Anna Rossi ha scritto:",  // Italian
        "Em 01/01/2024 10:00, Ana Souza escreveu:",  // Portuguese (BR)
        "Às 10:00 de 01/01/2024, Ana Sousa escreveu:",  // Portuguese (PT)
        "Op 01-01-2024 om 10:00 schreef Anna de Vries:",  // Dutch
        "Den 01.01.2024 kl. 10.00 skrev Anna Jensen:",  // Danish
        "Den 2024-01-01 kl. 10:00, skrev Anna Svensson:",  // Swedish
        "Den 01.01.2024 10:00, skrev Anna Hansen:",  // Norwegian
        "Anna Virtanen kirjoitti 1.1.2024 klo 10.00:",  // Finnish
        "W dniu 1.01.2024 o 10:00, Anna Nowak pisze:",  // Polish
        "Dne 01. 01. 24 v 10:00 Anna Nováková napsal(a):",  // Czech
        "Dňa 1. 1. 2024 o 10:00 Anna Horváthová napísal(a):",  // Slovak
        "2024. 01. 01. 10:00 keltezéssel, Kovács Anna írta:",  // Hungarian
        "La 01.01.2024 10:00, Ana Popescu a scris:",  // Romanian
        "01.01.2024 10:00, Анна Иванова пишет:",  // Russian
        "Анна Шевченко пише 01.01.2024 10:00:",  // Ukrainian
        "01.01.2024 10:00 tarihinde Ayşe Yılmaz yazdı:",  // Turkish
        "Στις 1/1/2024 10:00 π.μ., ο/η Άννα Παππά έγραψε:",  // Greek
        "El 1/1/2024 a les 10:00, Anna Puig ha escrit:",  // Catalan
        "Vào lúc 10:00 01/01/2024, Nguyễn An đã viết:",  // Vietnamese
        "2024-01-01 오전 10:00에 김민지 이(가) 쓴 글:",  // Korean
        "在 2024/1/1 10:00, 张三 写道:",  // Chinese (simplified)
        "王小明 於 2024/1/1 上午 10:00 寫道:",  // Chinese (traditional)
        "נכתב על ידי דנה כהן, ב־1/1/2024 בשעה 10:00:",  // Hebrew
        "على 1/1/2024 \u{202B}10:00، كتب ليلى:",  // Arabic
        "Pada 01/01/2024 10.00, Siti Rahayu menulis:",  // Indonesian
    ]

    static let appleMail: [String] = [
        "On Jan 1, 2024, at 10:00, Ann Smith <ann@example.com> wrote:",  // English
        "Am 01.01.2024 um 10:00 schrieb Anna Schmidt <anna@example.de>:",  // German
        "Le 1 janv. 2024 à 10:00, Anne Martin <anne@example.fr> a écrit :",  // French
        "El 1 ene 2024, a las 10:00, Ana García <ana@example.es> escribió:",  // Spanish
        "Il giorno 1 gen 2024, alle ore 10:00, Anna Rossi <anna@example.it> ha scritto:",  // Italian
        "Em 1 de jan. de 2024, à(s) 10:00, Ana Souza <ana@example.com.br> escreveu:",  // Portuguese
        "Op 1 jan. 2024 om 10:00 heeft Anna de Vries <anna@example.nl> het volgende geschreven:",  // Dutch
        "1. jan. 2024 kl. 10.00 skrev Anna Jensen <anna@example.dk>:",  // Danish
        "1 jan. 2024 kl. 10:00 skrev Anna Svensson <anna@example.se>:",  // Swedish
        "Anna Virtanen <anna@example.fi> kirjoitti 1.1.2024 kello 10.00:",  // Finnish
        "Wiadomość napisana przez Anna Nowak <anna@example.pl> w dniu 01.01.2024, o godz. 10:00:",  // Polish
        "1 янв. 2024 г., в 10:00, Анна Иванова <anna@example.ru> написал(а):",  // Russian
        "1 січ. 2024 р. о 10:00 Анна Шевченко <anna@example.ua> написав(-ла):",  // Ukrainian
        "1 Oca 2024 tarihinde 10:00 saatinde, Ayşe Yılmaz <ayse@example.com.tr> şunları yazdı:",  // Turkish
        "Στις 1 Ιαν 2024, 10:00, ο χρήστης Άννα Παππά <anna@example.gr> έγραψε:",  // Greek
        "Vào 10:00, ngày 1 thg 1, 2024, Nguyễn An <an@example.vn> đã viết:",  // Vietnamese
        "2024. 1. 1. 오전 10:00, 김민지 <minji@example.kr> 작성:",  // Korean
        "2024/01/01 10:00、山田太郎 <taro@example.jp>のメール:",  // Japanese
        "2024年1月1日 10:00，张三 <zhang@example.cn> 写道：",  // Chinese
        "ב-1 בינו׳ 2024, בשעה 10:00, \u{200F}דנה כהן <dana@example.co.il> כתב/ה:",  // Hebrew
        "في 1 يناير 2024، الساعة 10:00، كتب ليلى <layla@example.sa>:",  // Arabic
        "Pada 1 Jan 2024, pukul 10.00, Siti Rahayu <siti@example.co.id> menulis:",  // Indonesian
    ]

    /// Other clients' English forms.
    static let others: [String] = [
        "On Mon, Jan 1, 2024 at 10:00 AM +0100, \"Ann Smith\" <ann@example.com> wrote:",  // Outlook mobile
        "On Monday, January 1, 2024, 10:00:00 AM GMT+1, Ann Smith <ann@example.com> wrote:",  // Yahoo
        "On 11-Apr-2011, at 6:54 PM, Roman Tkachenko <romant@example.com> sent:",  // "sent"
        "At 10:00 01/01/2024, you wrote:",  // Eudora
        "Ann Smith <ann@example.com> wrote:",  // name and address
        "2014-10-17 11:28 GMT+03:00 Postmaster <postmaster@example.com>:",  // Gmail, date first
        "On Sun, Aug 3, 2008 at 5:47 PM, Grant <grant@example.com>wrote:",  // no space
        "Anna Schmidt <anna@example.de> hat am 01.01.2024 10:00 geschrieben:",  // GMX, web.de
        "01.01.2024, 10:00, \"Анна\" <anna@example.ru>:",  // Yandex
        "Понедельник, 1 января 2024, 10:00 +03:00 от Анна <anna@example.ru>:",  // mail.ru
        "Quoting Ann Smith <ann@example.com>:",  // Horde
        "* Ann Smith <ann@example.com> [2024-03-05 10:02:41 +0000]:",  // mutt
    ]

    static var all: [String] { gmail + thunderbird + appleMail + others }
}
