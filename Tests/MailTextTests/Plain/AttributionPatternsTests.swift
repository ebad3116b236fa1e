import MailText
import Testing

/// Each attribution is put between a reply and a ONE-line quote: a single `>` line that touches its attribution
/// is only removed when the attribution is recognized, so these rows test the patterns themselves.
@Suite struct AttributionPatternsTests {
    static func reply(_ attribution: String) -> String {
        "Sounds good.\n\n\(attribution)\n> Lunch at noon?\n"
    }

    @Test("recognizes one-line attributions in every language", arguments: [
        "On Mon, Jan 1, 2024 at 10:00 AM Ann Smith <ann@example.com> wrote:",       // English, Gmail
        "On 01/01/2024 10:00, Ann Smith wrote:",                                    // English, Thunderbird
        "Ann Smith wrote:",                                                          // English, name only
        "Am Mo., 1. Jan. 2024 um 10:00 Uhr schrieb Anna Schmidt <anna@example.de>:", // German, Gmail
        "Anna Schmidt <anna@example.de> schrieb am 01.01.2024 10:00:",               // German, name first
        "Le lun. 1 janv. 2024 à 10:00, Anne Martin <anne@example.fr> a écrit :",     // French, space before colon
        "Le lun. 1 janv. 2024 à 10:00, Anne <anne@example.fr> a\u{00A0}écrit\u{00A0}:", // French, non-breaking spaces
        "El lun, 1 ene 2024 a las 10:00, Ana García (<ana@example.es>) escribió:",   // Spanish
        "Il giorno lun 1 gen 2024 alle ore 10:00 Anna Rossi <anna@example.it> ha scritto:", // Italian, Gmail
        "Il 01/01/2024 10:00, Anna Rossi ha scritto:",                               // Italian, short
        "Op ma 1 jan. 2024 om 10:00 schreef Anna de Vries <anna@example.nl>:",       // Dutch, Gmail
        "Anna de Vries schreef op 1 januari 2024 10:00:",                            // Dutch, name first
        "Em seg., 1 de jan. de 2024 às 10:00, Ana Souza <ana@example.com.br> escreveu:", // Portuguese
        "Den 1 jan. 2024 kl. 10:00 skrev Anna Svensson <anna@example.se>:",          // Swedish, Gmail
        "Anna Svensson skrev:",                                                      // Swedish, name only
        "W dniu 1.01.2024 o 10:00, Anna Nowak <anna@example.pl> napisał(a):",        // Polish, Thunderbird
        "Anna Nowak <anna@example.pl> pisze:",                                       // Polish, "pisze"
        "1 янв. 2024 г., в 10:00, Анна Иванова <anna@example.ru> пишет:",            // Russian, "пишет"
        "Анна Иванова написал(а):",                                                  // Russian, "написал(а)"
        "2024年1月1日(月) 10:00 Taro Yamada <taro@example.jp>:",                       // Japanese, Gmail date name email
        "2024/01/01 10:00、Taro Yamada <taro@example.jp>のメッセージ:",                 // Japanese, "のメッセージ"
        "山田さんは書きました:",                                                         // Japanese, "さんは書きました"
        "Taro Yamada は書きました：",                                                   // Japanese, full-width colon
        "Zhang San <zhang@example.cn> 于2024年1月1日周一 10:00写道：",                   // Chinese, "于 … 写道"
        "在 2024年1月1日，Zhang San <zhang@example.cn> 写道：",                          // Chinese, "在 … 写道"
    ])
    func oneLine(attribution: String) {
        let cleaned = PlainTextCleaner.clean(Self.reply(attribution))
        #expect(cleaned.text == "Sounds good.")
        #expect(cleaned.removedQuote)
    }

    @Test("recognizes attributions wrapped over two or three lines", arguments: [
        "On Mon, Jan 1, 2024 at 10:00 AM Ann Smith <\nann@example.com> wrote:",       // English, address split
        "On Mon, Jan 1, 2024 at 10:00 AM\nAnn Smith\n<ann@example.com> wrote:",       // English, three lines
        "Am Mo., 1. Jan. 2024 um 10:00 Uhr schrieb Anna Schmidt\n<anna@example.de>:", // German
        "Le lun. 1 janv. 2024 à 10:00, Anne Martin <anne@example.fr>\na écrit :",    // French
        "El lun, 1 ene 2024 a las 10:00, Ana García\n(<ana@example.es>) escribió:",  // Spanish
        "Il giorno lun 1 gen 2024 alle ore 10:00 Anna Rossi <\nanna@example.it> ha scritto:", // Italian
        "Op ma 1 jan. 2024 om 10:00 schreef Anna de Vries\n<anna@example.nl>:",      // Dutch
        "Em seg., 1 de jan. de 2024 às 10:00, Ana Souza\n<ana@example.com.br> escreveu:", // Portuguese
        "Den 1 jan. 2024 kl. 10:00 skrev Anna Svensson\n<anna@example.se>:",         // Swedish
        "W dniu 1.01.2024 o 10:00, Anna Nowak <anna@example.pl>\nnapisał(a):",       // Polish
        "1 янв. 2024 г., в 10:00, Анна Иванова\n<anna@example.ru> пишет:",           // Russian
        "2024年1月1日(月) 10:00 Taro Yamada\n<taro@example.jp>:",                      // Japanese
        "Zhang San <zhang@example.cn> 于2024年1月1日周一\n10:00写道：",                   // Chinese
    ])
    func wrapped(attribution: String) {
        let cleaned = PlainTextCleaner.clean(Self.reply(attribution))
        #expect(cleaned.text == "Sounds good.")
    }

    @Test("a wrapped attribution directly under the reply takes only its own lines")
    func wrappedUnderReply() {
        let body = "Sounds good.\nOn Mon, Jan 1, 2024 at 10:00 AM Ann Smith <\nann@example.com> wrote:\n> Lunch?\n> At noon?"
        #expect(PlainTextCleaner.clean(body).text == "Sounds good.")
    }

    @Test("an anchored attribution at the end of the text is removed even without its quote")
    func attributionAtEnd() {
        let cleaned = PlainTextCleaner.clean("Thanks!\n\nOn Mon, Jan 1, 2024 at 10:00 AM Ann <ann@example.com> wrote:\n")
        #expect(cleaned.text == "Thanks!")
        #expect(cleaned.removedQuote)
    }

    @Test("an attribution followed by unrelated text is not removed", arguments: [
        "On Mon, Jan 1, 2024 Ann <ann@example.com> wrote:\nI think we should meet on Tuesday.", // anchored, then prose
        "Anna Svensson skrev:\nVi ses i morgon.",                                           // ending-only, then prose
        "Ann Smith wrote:\nthe plan is fine.\n\nBob",                                        // name-only, then prose
    ])
    func attributionWithoutQuote(body: String) {
        let cleaned = PlainTextCleaner.clean(body)
        #expect(cleaned.text == body)
        #expect(!cleaned.removedQuote)
    }

    @Test("an ending-only pattern at the end of the text is not an attribution")
    func weakPatternAtEnd() {
        let body = "Here is what the reviewer wrote:"
        #expect(PlainTextCleaner.clean(body).text == body)
    }
}
