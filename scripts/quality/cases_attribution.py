"""Replies above a `>` quote or an unquoted original, introduced by an attribution line: Gmail's in 41
languages, Apple Mail's and Thunderbird's localized ones, and the odd shapes attributions take."""

from languages import APPLE, BY_CODE, GMAIL, LANGUAGES, THUNDERBIRD
from write_cases import Case, mail, people, quote, subject_for


def first_name(full):
    return full.split()[0] if " " in full else full


def reply_text(language):
    return f"{language.reply}\n\n{first_name(language.replier)}"


def original_text(language):
    return f"{language.original}\n\n{first_name(language.author)}"


def gmail_languages():
    """Gmail: reply, blank line, attribution, blank line, quote ending in a bare ">"."""
    cases = []
    for language in LANGUAGES:
        attribution = GMAIL[language.code].format(n=language.author, a=language.author_mail)
        body = f"{reply_text(language)}\n\n{attribution}\n\n{quote(original_text(language))}\n>\n"
        sender, to = people(language)
        name = f"gmail-{language.code.lower()}"
        cases.append(Case("attribution-languages", name,
                          mail(name, body, sender=sender, to=to, subject=subject_for(language)),
                          reply_text(language)))
    return cases


def apple_and_thunderbird():
    """Apple Mail puts its attribution inside the quote; Thunderbird puts it right above, no blank line."""
    cases = []
    for code, pattern in APPLE.items():
        language = BY_CODE[code]
        attribution = pattern.format(n=language.author, a=language.author_mail)
        body = f"{reply_text(language)}\n\n> {attribution}\n> \n{quote(original_text(language))}\n"
        sender, to = people(language)
        cases.append(Case("attribution-clients", f"apple-{code.lower()}",
                          mail(f"apple-{code}", body, sender=sender, to=to, subject=subject_for(language)),
                          reply_text(language)))
    for code, pattern in THUNDERBIRD.items():
        language = BY_CODE[code]
        attribution = pattern.format(n=language.author)
        body = f"{reply_text(language)}\n\n{attribution}\n{quote(original_text(language))}\n"
        sender, to = people(language)
        cases.append(Case("attribution-clients", f"thunderbird-{code.lower()}",
                          mail(f"thunderbird-{code}", body, sender=sender, to=to, subject=subject_for(language)),
                          reply_text(language)))
    return cases


REPLY = "Thanks, Tuesday at ten works for me. I will bring the slides.\n\nBob"
ORIGINAL = "Can we meet on Tuesday to go through the slides?\n\nAnn"


def shape(name, attribution, expected=REPLY, body=None, quoted=True, reply=REPLY):
    text = body or f"{reply}\n\n{attribution}\n{quote(ORIGINAL) if quoted else ORIGINAL}\n"
    return Case("attribution-shapes", name, mail(f"shape-{name}", text), expected)


def shapes():
    long_name = "Annabelle Wilhelmina Fotheringham-Smythe"
    long_mail = "annabelle.fotheringham-smythe@research.example.com"
    return [
        shape("gmail-wrapped-two-lines", "On Tue, Mar 5, 2024 at 10:02 AM Ann Smith <ann@example.com>\nwrote:\n"),
        shape("gmail-wrapped-three-lines",
              f"On Tue, Mar 5, 2024 at 10:02 AM {long_name} <\n{long_mail}>\nwrote:\n"),
        shape("gmail-german-wrapped",
              "Am Di., 5. März 2024 um 10:02 Uhr schrieb Anna Schmidt <\nanna.schmidt@example.de>:\n",
              body="Danke, das passt.\n\nJonas\n\nAm Di., 5. März 2024 um 10:02 Uhr schrieb Anna Schmidt <\n"
                   "anna.schmidt@example.de>:\n\n> Passt dir Dienstag?\n>\n> Anna\n",
              expected="Danke, das passt.\n\nJonas"),
        shape("gmail-french-wrapped", "",
              body="Merci, c'est parfait.\n\nJulien\n\nLe mar. 5 mars 2024 à 10:02, Claire Martin <claire.martin@example.fr> a\n"
                   "écrit :\n\n> Mardi te convient ?\n>\n> Claire\n",
              expected="Merci, c'est parfait.\n\nJulien"),
        shape("gmail-british-date", "On Tue, 5 Mar 2024 at 10:02, Ann Smith <ann@example.com> wrote:\n"),
        shape("gmail-narrow-no-break-space", "On Tue, Mar 5, 2024 at 10:02\u202fAM Ann Smith <ann@example.com> wrote:\n"),
        shape("inline-at-end-of-last-line", "",
              body="Thanks, Tuesday at ten works for me. On Tue, Mar 5, 2024 at 10:02 AM Ann Smith <ann@example.com> wrote:\n"
                   f"{quote(ORIGINAL)}\n",
              expected="Thanks, Tuesday at ten works for me."),
        shape("zoho-dashed", "---- On Tue, 05 Mar 2024 10:02:00 +0000 Ann Smith <ann@example.com> wrote ----\n",
              quoted=False),
        shape("zoho-dashed-french", "",
              body="Merci, c'est noté.\n\n---- Le mar., 05 mars 2024 10:02:00 +0100 Claire Martin <claire@example.fr> a écrit ----\n\n"
                   "Mardi te convient ?\n\nClaire\n",
              expected="Merci, c'est noté."),
        shape("name-only", "Ann Smith wrote:"),
        shape("gnus-writes", "Ann Smith <ann@example.com> writes:\n"),
        shape("mutt-asterisk", "* Ann Smith <ann@example.com> [2024-03-05 10:02:41 +0000]:"),
        shape("horde-quoting", "Quoting Ann Smith <ann@example.com>:\n"),
        shape("roundcube-iso-date", "On 2024-03-05 10:02, Ann Smith wrote:"),
        shape("outlook-mac", 'On 05/03/2024, 10:02, "Ann Smith" <ann@example.com> wrote:\n'),
        shape("lotus-notes", "Ann Smith <ann@example.com> wrote on 05/03/2024 10:02:41:\n"),
        shape("via-list", "On Tue, Mar 5, 2024 at 10:02 AM Ann Smith via Users <users@lists.example.org> wrote:\n"),
        shape("no-blank-line-before", "",
              body=f"{REPLY}\nOn Tue, Mar 5, 2024 at 10:02 AM Ann Smith <ann@example.com> wrote:\n{quote(ORIGINAL)}\n"),
    ]


def unquoted(name, body, expected, **kwargs):
    return Case("attribution-unquoted", name, mail(f"unquoted-{name}", body, **kwargs), expected)


def unquoted_originals():
    """The original below the attribution without `>`: Yahoo, mobile clients, HTML-to-text alternatives."""
    de, fr, es, ru = BY_CODE["de"], BY_CODE["fr"], BY_CODE["es"], BY_CODE["ru"]
    return [
        unquoted("yahoo", f"{REPLY}\n\n    On Tuesday, March 5, 2024, 10:02:41 AM GMT+1, Ann Smith <ann@example.com> wrote:  \n \n "
                          f"{ORIGINAL}\n", REPLY),
        unquoted("gmail-english", f"{REPLY}\n\nOn Tue, Mar 5, 2024 at 10:02 AM Ann Smith <ann@example.com> wrote:\n\n"
                                  f"{ORIGINAL}\n", REPLY),
        unquoted("apple-german", f"{reply_text(de)}\n\nAm 05.03.2024 um 10:02 schrieb Anna Schmidt <anna@example.de>:\n\n"
                                 f"{original_text(de)}\n", reply_text(de),
                 sender=people(de)[0], to=people(de)[1], subject=subject_for(de)),
        unquoted("thunderbird-french", f"{reply_text(fr)}\n\nLe 05/03/2024 à 10:02, Claire Martin a écrit :\n"
                                       f"{original_text(fr)}\n", reply_text(fr),
                 sender=people(fr)[0], to=people(fr)[1], subject=subject_for(fr)),
        unquoted("gmail-spanish", f"{reply_text(es)}\n\n"
                                  f"{GMAIL['es'].format(n=es.author, a=es.author_mail)}\n\n{original_text(es)}\n",
                 reply_text(es), sender=people(es)[0], to=people(es)[1], subject=subject_for(es)),
        unquoted("gmail-russian", f"{reply_text(ru)}\n\n"
                                  f"{GMAIL['ru'].format(n=ru.author, a=ru.author_mail)}\n\n{original_text(ru)}\n",
                 reply_text(ru), sender=people(ru)[0], to=people(ru)[1], subject=subject_for(ru)),
        unquoted("nested-original", f"Sounds good, see you both there.\n\nCarol\n\n"
                                    f"On Tue, Mar 5, 2024 at 11:00 AM Bob Jones <bob@example.com> wrote:\n\n{REPLY}\n\n"
                                    f"On Tue, Mar 5, 2024 at 10:02 AM Ann Smith <ann@example.com> wrote:\n\n{ORIGINAL}\n",
                 "Sounds good, see you both there.\n\nCarol", sender=("Carol White", "carol@example.com")),
    ]


def quoted_variants():
    """English replies whose `>` quote has the shapes real quotes have."""
    broken_wrap = (f"{REPLY}\n\nOn Tue, Mar 5, 2024 at 10:02 AM Ann Smith <ann@example.com> wrote:\n"
                   "> Can we meet on Tuesday to go through the slides for the quarterly review with\n"
                   "the finance team?\n> \n> Ann\n")
    nested = (f"{REPLY}\n\nOn Tue, Mar 5, 2024 at 10:30 AM Ann Smith <ann@example.com> wrote:\n> Ten works.\n>\n"
              "> On Tue, Mar 5, 2024 at 10:02 AM Bob Jones <bob@example.com> wrote:\n>> Shall we say ten?\n>>\n>> Bob\n")
    with_signature = (f"{REPLY}\n\nOn Tue, Mar 5, 2024 at 10:02 AM Ann Smith <ann@example.com> wrote:\n{quote(ORIGINAL)}\n"
                      "> \n> -- \n> Ann Smith\n> Head of Design, Example Ltd.\n> \n"
                      "> _______________________________________________\n> team mailing list\n> team@lists.example.org\n")
    long_quote = "\n".join(f"> Item {n}: check the figures on slide {n} against the spreadsheet." for n in range(1, 31))
    bottom = ("On Tue, Mar 5, 2024 at 10:02 AM Ann Smith <ann@example.com> wrote:\n> Can we meet on Tuesday?\n>\n"
              "> Ann\n\nTuesday at ten works for me.\n\nBob\n")
    flowed = ("Thanks, Tuesday at ten works for me. I will bring the slides and \nthe printed agenda.\n\nBob\n\n"
              "On 3/5/24 10:02 AM, Ann Smith wrote:\n> Can we meet on Tuesday to go through the slides? We \n"
              "> need an hour.\n")
    spaced = f"{REPLY}\n\nOn Tue, Mar 5, 2024 at 10:02 AM Ann Smith <ann@example.com> wrote:\n  > Can we meet?\n  > Ann\n"
    no_space = f"{REPLY}\n\nOn Tue, Mar 5, 2024 at 10:02 AM Ann Smith <ann@example.com> wrote:\n>Can we meet?\n>\n>Ann\n"
    return [
        Case("attribution-quoted", "lost-continuation-marker", mail("q-lost-marker", broken_wrap), REPLY),
        Case("attribution-quoted", "nested-levels", mail("q-nested", nested), REPLY),
        Case("attribution-quoted", "quoted-signature-and-list-footer", mail("q-sig", with_signature), REPLY),
        Case("attribution-quoted", "long-quote", mail("q-long", f"{REPLY}\n\nOn Tue, Mar 5, 2024 at 10:02 AM Ann Smith "
                                                             f"<ann@example.com> wrote:\n\n{long_quote}\n"), REPLY),
        Case("attribution-quoted", "bottom-posted", mail("q-bottom", bottom), "Tuesday at ten works for me.\n\nBob"),
        Case("attribution-quoted", "format-flowed", mail("q-flowed", flowed, flowed=True),
             "Thanks, Tuesday at ten works for me. I will bring the slides and the printed agenda.\n\nBob"),
        Case("attribution-quoted", "indented-markers", mail("q-indented", spaced), REPLY),
        Case("attribution-quoted", "markers-without-space", mail("q-nospace", no_space), REPLY),
        Case("attribution-quoted", "quote-without-attribution",
             mail("q-no-attribution", f"{REPLY}\n\n{quote(ORIGINAL)}\n"), REPLY),
        Case("attribution-quoted", "one-line-reply", mail("q-one-line", "Yes!\n\nOn Tue, Mar 5, 2024 at 10:02 AM Ann "
                                                                        f"Smith <ann@example.com> wrote:\n{quote(ORIGINAL)}\n"),
             "Yes!"),
    ]


def cases():
    return gmail_languages() + apple_and_thunderbird() + shapes() + unquoted_originals() + quoted_variants()
