import MailText
import Testing

/// Each attribution is put between a reply and a ONE-line quote: a single `>` line that touches its attribution
/// is only removed when the attribution is recognized, so these rows test the patterns themselves.
@Suite struct AttributionPatternsTests {
    static func reply(_ attribution: String) -> String {
        "Sounds good.\n\n\(attribution)\n> Lunch at noon?\n"
    }

    @Test(
        "recognizes one-line attributions in every language",
        arguments: [
            "On Mon, Jan 1, 2024 at 10:00 AM Ann Smith <ann@example.com> wrote:",  // English, Gmail
            "On 01/01/2024 10:00, Ann Smith wrote:",  // English, Thunderbird
            "Ann Smith wrote:",  // English, name only
            "Am Mo., 1. Jan. 2024 um 10:00 Uhr schrieb Anna Schmidt <anna@example.de>:",  // German, Gmail
            "Anna Schmidt <anna@example.de> schrieb am 01.01.2024 10:00:",  // German, name first
            "Le lun. 1 janv. 2024 à 10:00, Anne Martin <anne@example.fr> a écrit :",  // French, space before colon
            // French, non-breaking spaces
            "Le lun. 1 janv. 2024 à 10:00, Anne <anne@example.fr> a\u{00A0}écrit\u{00A0}:",
            "El lun, 1 ene 2024 a las 10:00, Ana García (<ana@example.es>) escribió:",  // Spanish
            "Il giorno lun 1 gen 2024 alle ore 10:00 Anna Rossi <anna@example.it> ha scritto:",  // Italian, Gmail
            "Il 01/01/2024 10:00, Anna Rossi ha scritto:",  // Italian, short
            "Op ma 1 jan. 2024 om 10:00 schreef Anna de Vries <anna@example.nl>:",  // Dutch, Gmail
            "Anna de Vries schreef op 1 januari 2024 10:00:",  // Dutch, name first
            "Em seg., 1 de jan. de 2024 às 10:00, Ana Souza <ana@example.com.br> escreveu:",  // Portuguese
            "Den 1 jan. 2024 kl. 10:00 skrev Anna Svensson <anna@example.se>:",  // Swedish, Gmail
            "Anna Svensson skrev:",  // Swedish, name only
            "W dniu 1.01.2024 o 10:00, Anna Nowak <anna@example.pl> napisał(a):",  // Polish, Thunderbird
            "Anna Nowak <anna@example.pl> pisze:",  // Polish, "pisze"
            "1 янв. 2024 г., в 10:00, Анна Иванова <anna@example.ru> пишет:",  // Russian, "пишет"
            "Анна Иванова написал(а):",  // Russian, "написал(а)"
            "2024年1月1日(月) 10:00 Taro Yamada <taro@example.jp>:",  // Japanese, Gmail date name email
            "2024/01/01 10:00、Taro Yamada <taro@example.jp>のメッセージ:",  // Japanese, "のメッセージ"
            "山田さんは書きました:",  // Japanese, "さんは書きました"
            "Taro Yamada は書きました：",  // Japanese, full-width colon
            "Zhang San <zhang@example.cn> 于2024年1月1日周一 10:00写道：",  // Chinese, "于 … 写道"
            "在 2024年1月1日，Zhang San <zhang@example.cn> 写道：",  // Chinese, "在 … 写道"
        ])
    func oneLine(attribution: String) {
        let cleaned = PlainTextCleaner.clean(Self.reply(attribution))
        #expect(cleaned.text == "Sounds good.")
        #expect(cleaned.removedQuote)
    }

    @Test("recognizes every client's attribution above a `>` quote", arguments: AttributionFormats.all)
    func clientFormatAboveQuote(attribution: String) {
        let cleaned = PlainTextCleaner.clean(Self.reply(attribution))
        #expect(cleaned.text == "Sounds good.")
        #expect(cleaned.removedQuote)
    }

    @Test(
        "an attribution with a date or address cuts the unquoted original below it", arguments: AttributionFormats.all)
    func clientFormatAboveUnquotedOriginal(attribution: String) {
        let body = "Sounds good.\n\n\(attribution)\n\nHi Bob,\nlunch at noon on Friday?\n\nAnn\n"
        let cleaned = PlainTextCleaner.clean(body)
        #expect(cleaned.text == "Sounds good.")
        #expect(cleaned.removedQuote)
    }

    @Test(
        "recognizes attributions wrapped over two or three lines",
        arguments: [
            "On Mon, Jan 1, 2024 at 10:00 AM Ann Smith <\nann@example.com> wrote:",  // English, address split
            "On Mon, Jan 1, 2024 at 10:00 AM\nAnn Smith\n<ann@example.com> wrote:",  // English, three lines
            "Am Mo., 1. Jan. 2024 um 10:00 Uhr schrieb Anna Schmidt\n<anna@example.de>:",  // German
            "Le lun. 1 janv. 2024 à 10:00, Anne Martin <anne@example.fr>\na écrit :",  // French
            "El lun, 1 ene 2024 a las 10:00, Ana García\n(<ana@example.es>) escribió:",  // Spanish
            "Il giorno lun 1 gen 2024 alle ore 10:00 Anna Rossi <\nanna@example.it> ha scritto:",  // Italian
            "Op ma 1 jan. 2024 om 10:00 schreef Anna de Vries\n<anna@example.nl>:",  // Dutch
            "Em seg., 1 de jan. de 2024 às 10:00, Ana Souza\n<ana@example.com.br> escreveu:",  // Portuguese
            "Den 1 jan. 2024 kl. 10:00 skrev Anna Svensson\n<anna@example.se>:",  // Swedish
            "W dniu 1.01.2024 o 10:00, Anna Nowak <anna@example.pl>\nnapisał(a):",  // Polish
            "1 янв. 2024 г., в 10:00, Анна Иванова\n<anna@example.ru> пишет:",  // Russian
            "2024年1月1日(月) 10:00 Taro Yamada\n<taro@example.jp>:",  // Japanese
            "Zhang San <zhang@example.cn> 于2024年1月1日周一\n10:00写道：",  // Chinese
        ])
    func wrapped(attribution: String) {
        let cleaned = PlainTextCleaner.clean(Self.reply(attribution))
        #expect(cleaned.text == "Sounds good.")
    }

    @Test("a wrapped attribution directly under the reply takes only its own lines")
    func wrappedUnderReply() {
        let body =
            "Sounds good.\nOn Mon, Jan 1, 2024 at 10:00 AM Ann Smith <\nann@example.com> wrote:\n> Lunch?\n> At noon?"
        #expect(PlainTextCleaner.clean(body).text == "Sounds good.")
    }

    @Test("an anchored attribution at the end of the text is removed even without its quote")
    func attributionAtEnd() {
        let cleaned = PlainTextCleaner.clean(
            "Thanks!\n\nOn Mon, Jan 1, 2024 at 10:00 AM Ann <ann@example.com> wrote:\n")
        #expect(cleaned.text == "Thanks!")
        #expect(cleaned.removedQuote)
    }

    @Test(
        "an attribution followed by unrelated text is not removed",
        arguments: [
            // anchored, then prose
            "On Mon, Jan 1, 2024 Ann <ann@example.com> wrote:\nI think we should meet on Tuesday.",
            "Anna Svensson skrev:\nVi ses i morgon.",  // ending-only, then prose
            "Ann Smith wrote:\nthe plan is fine.\n\nBob",  // name-only, then prose
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

/// The shapes attributions take besides one clean line: wrapped, split off the reply's last line, dashed,
/// without a colon.
@Suite struct AttributionShapesTests {
    @Test(
        "recognizes an attribution whose address wrapped onto a `>` closing line",
        arguments: [
            "On Mon, Jan 1, 2024 at 10:00 AM Ann Smith <ann@example.com\n> wrote:",  // English
            "Le lun. 1 janv. 2024 à 10:00, Anne Martin <anne@example.fr\n> a écrit :",  // French
            "Am Mo., 1. Jan. 2024 um 10:00 Uhr schrieb Anna Schmidt <anna@example.de\n>:",  // German, lone ">:"
            "2024年1月1日(月) 10:00 山田太郎 <taro@example.jp\n>:",  // Japanese, lone ">:"
        ])
    func closingLine(attribution: String) {
        let cleaned = PlainTextCleaner.clean("Sounds good.\n\n\(attribution)\n> Lunch at noon?\n> Or later?\n")
        #expect(cleaned.text == "Sounds good.")
    }

    @Test(
        "recognizes a wrapped date whose abbreviation or day number ends in a dot",
        arguments: [
            "Anna Schmidt <anna@example.de> schrieb am Fr., 28.\nApr. 2017 um 11:53 Uhr:",  // German, "28." then "Apr."
            "Am Di., 5.\nMärz 2024 um 10:00 Uhr schrieb Anna Schmidt <anna@example.de>:",  // German, "5." then "März"
            "Den tirs. 5. mar. 2024 kl.\n10.00 skrev Anna Jensen <anna@example.dk>:",  // Danish, "kl." then a time
            "Le mar.\n5 mars 2024 à 10:00, Anne Martin <anne@example.fr> a écrit :",  // French, "mar." then a day
        ])
    func dottedDate(attribution: String) {
        #expect(PlainTextCleaner.clean("Sounds good.\n\n\(attribution)\n> Lunch at noon?\n").text == "Sounds good.")
        #expect(PlainTextCleaner.clean("Sounds good.\n\n\(attribution)\n\nLunch at noon?\n").text == "Sounds good.")
    }

    @Test(
        "splits an attribution off the end of the reply's last line and keeps the reply",
        arguments: [
            (
                "Sounds good, thanks. On Mon, Jan 1, 2024 at 10:00 AM Ann Smith <ann@example.com> wrote:",
                "Sounds good, thanks."
            ),
            ("Danke dir! Am Mo., 1. Jan. 2024 um 10:00 Uhr schrieb Anna Schmidt <anna@example.de>:", "Danke dir!"),
            ("reply--- On Wed, Apr 4, 2012 at 3:59 PM, me@example.com wrote:", "reply"),
            ("Thanks. On Mon, Jan 1, 2024 at 10:00 AM Ann Smith <\nann@example.com> wrote:", "Thanks."),
            ("See you there. Ann Smith <ann@example.com> wrote:", "See you there."),
        ])
    func inline(line: String, reply: String) {
        #expect(PlainTextCleaner.clean("\(line)\n> Lunch at noon?\n> Or later?\n").text == reply)  // quoted original
        #expect(PlainTextCleaner.clean("\(line)\n\nLunch at noon?\n").text == reply)  // unquoted original
        #expect(PlainTextCleaner.clean("\(line)\n").text == reply)  // original gone
    }

    @Test(
        "recognizes dashed attributions",
        arguments: [
            "---- On Tue, 22 Dec 2015 14:17:36 +0530 Sam Smith <sam@example.com> wrote ----",  // Zoho
            "------On 12/29/1987 17:32 PM, Julius Caesar wrote-----",  // no colon, no space
            "--- On Mon, 1/1/24, Ann Smith <ann@example.com> wrote:",  // old Yahoo
        ])
    func dashed(attribution: String) {
        #expect(PlainTextCleaner.clean("Sounds good.\n\n\(attribution)\n\nLunch at noon?\n").text == "Sounds good.")
        #expect(PlainTextCleaner.clean("Sounds good.\n\n\(attribution)\n> Lunch at noon?\n").text == "Sounds good.")
    }

    @Test(
        "recognizes an attribution without its colon directly above a `>` quote",
        arguments: [
            "On Mon, Jan 1, 2024 at 10:00 AM Ann Smith <ann@example.com> wrote",  // missing colon
            "Am 01.01.2024 um 10:00 schrieb Anna Schmidt <anna@example.de>",  // German, missing colon
            "2011/4/7 Nathan Smith <support@example.com>",  // bare date, name, address
            "---- Ann Smith wrote ----",  // dashed, name only
        ])
    func missingColon(attribution: String) {
        #expect(PlainTextCleaner.clean("Sounds good.\n\n\(attribution)\n> Lunch at noon?\n").text == "Sounds good.")
    }

    @Test("a date that opens an attribution does not take the reply line above it")
    func dateUnderReply() {
        let body = "Replying ok\n2011/4/7 Nathan Ivanova <support@example.com>\n\n>  Cool beans, scro"
        #expect(PlainTextCleaner.clean(body).text == "Replying ok")
    }

    @Test("Yahoo's original on the attribution line is cut")
    func flattenedOriginal() {
        let body =
            "Happy holidays.\n\nSent from Yahoo Mail on Android\n\n"
            + "  On Fri, Nov 27, 2020 at 1:35 PM, Ann Smith<ann@example.com> wrote:   Hi all, the new build is out."
        #expect(PlainTextCleaner.clean(body).text == "Happy holidays.")
    }

    @Test(
        "prose that looks like an attribution stays",
        arguments: [
            "Sounds good.\n\nAs Ann wrote:\nthe plan is fine.",  // no date or address
            "Sounds good.\n\nOn Friday, Ann wrote:\nthe plan is fine.\n\nBob",  // lead, but no date
            "Sounds good.\n\nI wrote about this on 2 May:\nthe plan is fine.",  // verb with a day, no year
            "Let's meet at 10:00. Ann wrote:\nthe room is booked.",  // a time in the sentence before
            "On Friday we ship.\nAnn wrote:\nthe room is booked.",  // a sentence, then a name
            "We agreed on it. On Monday at 10:00 we ship\nthe new build.",  // "On" and a time mid-line
            // another verb
            "Sounds good.\n\nOn the 5 March 2024 call, Bob <bob@example.com> asked:\nwhy ship on Friday?\n\nI think we can.",
            "Log below.\n\n2024-03-05 10:02:41 server01 <kernel@example.com> reported:\nout of memory",  // a log line
        ])
    func proseStays(body: String) {
        let cleaned = PlainTextCleaner.clean(body)
        #expect(cleaned.text == body)
        #expect(!cleaned.removedQuote)
    }

    @Test(
        "a sentence above an attribution stays even when it starts like one",
        arguments: [
            ("On Friday we ship.\nAnn <ann@example.com> wrote:\n> Ship when?\n> Friday?", "On Friday we ship."),
            ("On Friday we ship\nAnn <ann@example.com> wrote:\n> Ship when?\n> Friday?", "On Friday we ship"),
            ("Ok. Ann <ann@example.com> wrote:\n> Ship when?\n> Friday?", "Ok."),
            ("On it.\nAnn <ann@example.com> wrote:\n> Ship when?\n> Friday?", "On it."),
        ])
    func sentenceAboveAttribution(body: String, reply: String) {
        #expect(PlainTextCleaner.clean(body).text == reply)
    }
}
