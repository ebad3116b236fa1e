"""HTML replies as each client marks its quote up: Gmail's gmail_quote, Outlook's divRplyFwdMsg and
border-top header block, Apple's blockquote type=cite, Thunderbird's moz-cite-prefix, Yandex and
mail.ru blockquotes with only a style border, Hotmail's hr#stopSpelling, Yahoo, Zimbra, Proton Mail."""

from html import escape

from languages import APPLE, BY_CODE, GMAIL
from outlook_formats import OUTLOOK
from write_cases import Case, mail, people, subject_for


def first_name(full):
    return full.split()[0] if " " in full else full


def reply_text(language):
    return f"{language.reply}\n\n{first_name(language.replier)}"


def divs(text):
    """Gmail-style paragraphs: one div per line, an empty line as <div><br></div>."""
    return "".join("<div><br></div>" if not line else f"<div>{escape(line)}</div>" for line in text.split("\n"))


def original_html(language):
    return f"<div>{escape(language.original)}</div><div><br></div><div>{escape(first_name(language.author))}</div>"


def gmail(language):
    attribution = escape(GMAIL[language.code].format(n=language.author, a=language.author_mail))
    return (f'<div dir="ltr">{divs(reply_text(language))}</div><br><div class="gmail_quote">'
            f'<div dir="ltr" class="gmail_attr">{attribution}<br></div>'
            '<blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex;border-left:1px solid '
            f'rgb(204,204,204);padding-left:1ex">{original_html(language)}</blockquote></div>')


def outlook_desktop(language, code):
    block = OUTLOOK[code]
    paragraphs = "".join(f'<p class="MsoNormal">{escape(line) or "&nbsp;"}<o:p></o:p></p>'
                         for line in reply_text(language).split("\n"))
    return ('<html xmlns:o="urn:schemas-microsoft-com:office:office"><head><meta charset="utf-8"><style>'
            'p.MsoNormal{margin:0cm;font-size:11.0pt;font-family:"Calibri",sans-serif;}</style></head>'
            f'<body lang="{code}"><div class="WordSection1">{paragraphs}<p class="MsoNormal"><o:p>&nbsp;</o:p></p>'
            '<div><div style="border:none;border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0cm 0cm 0cm">'
            f'<p class="MsoNormal"><b>{escape(block.sender)}:</b> {escape(language.author)} '
            f'&lt;{language.author_mail}&gt; <br><b>{escape(block.sent)}:</b> {escape(block.date)}<br>'
            f'<b>{escape(block.to)}:</b> {escape(language.replier)} &lt;{language.replier_mail}&gt;<br>'
            f'<b>{escape(block.subject)}:</b> {escape(language.subject)}<o:p></o:p></p></div></div>'
            f'<p class="MsoNormal"><o:p>&nbsp;</o:p></p><p class="MsoNormal">{escape(language.original)}<o:p></o:p></p>'
            '</div></body></html>')


def outlook_web(language, code):
    block = OUTLOOK[code]
    return (f'<html><body><div dir="ltr">{divs(reply_text(language))}</div><div id="appendonsend"></div>'
            '<hr style="display:inline-block;width:98%" tabindex="-1"><div id="divRplyFwdMsg" dir="ltr">'
            '<font face="Calibri, sans-serif" style="font-size:11pt" color="#000000">'
            f'<b>{escape(block.sender)}:</b> {escape(language.author)} &lt;{language.author_mail}&gt;<br>'
            f'<b>{escape(block.sent)}:</b> {escape(block.date)}<br>'
            f'<b>{escape(block.to)}:</b> {escape(language.replier)} &lt;{language.replier_mail}&gt;<br>'
            f'<b>{escape(block.subject)}:</b> {escape(language.subject)}</font><div>&nbsp;</div></div>'
            f'<div>{original_html(language)}</div></body></html>')


def apple(language):
    attribution = escape(APPLE[language.code].format(n=language.author, a=language.author_mail))
    return (f'<html><body dir="auto">{divs(reply_text(language))}<div><br><blockquote type="cite">'
            f'<div>{attribution}</div><br class="Apple-interchange-newline">{original_html(language)}'
            '</blockquote></div></body></html>')


def html_case(name, html, expected, language=None, **kwargs):
    if language is not None:
        sender, to = people(language)
        kwargs.update(sender=sender, to=to, subject=subject_for(language))
    return Case("html-quotes", name, mail(f"html-{name}", html=html, **kwargs), expected)


def cases():
    en, de, fr, es, ja, ru = (BY_CODE[c] for c in ("en", "de", "fr", "es", "ja", "ru"))
    result = [html_case(f"gmail-{l.code}", gmail(l), reply_text(l), l) for l in (en, de, fr, es, ja)]
    result += [html_case(f"outlook-desktop-{c}", outlook_desktop(BY_CODE[c], c), reply_text(BY_CODE[c]), BY_CODE[c])
               for c in ("en", "de", "fr", "pl")]
    result += [html_case(f"outlook-web-{c}", outlook_web(BY_CODE[c], c), reply_text(BY_CODE[c]), BY_CODE[c])
               for c in ("en", "nl", "it", "da", "zh")]
    result += [html_case(f"apple-{l.code}", apple(l), reply_text(l), l) for l in (en, fr, de)]
    reply = reply_text(en)
    original = original_html(en)
    result += [
        html_case("thunderbird-en", f'<html><body><p>{escape(en.reply)}</p><p>Bob<br></p><div class="moz-cite-prefix">'
                                    'On 3/5/24 10:02 AM, Ann Smith wrote:<br></div><blockquote type="cite" '
                                    f'cite="mid:original@example.com">{original}</blockquote></body></html>', reply),
        html_case("thunderbird-de", f'<html><body><p>{escape(de.reply)}</p><p>Jonas<br></p><div class="moz-cite-prefix">'
                                    'Am 05.03.24 um 10:02 schrieb Anna Schmidt:<br></div><blockquote type="cite">'
                                    f'{original_html(de)}</blockquote></body></html>', reply_text(de), de),
        html_case("yandex-ru", f'<div>{escape(ru.reply)}</div><div>&nbsp;</div><div>Дмитрий</div><div>&nbsp;</div>'
                               '<div>05.03.2024, 10:02, "Анна Иванова" &lt;anna@example.ru&gt;:</div>'
                               '<blockquote style="border-left:1px solid #0857A6;margin:10px;padding:0 0 0 10px">'
                               f'{original_html(ru)}</blockquote>', reply_text(ru), ru),
        html_case("mailru-ru", f'<html><body><div>{escape(ru.reply)}</div><div><br></div><div>Дмитрий</div><div><br></div>'
                               '<blockquote style="border-left:1px solid #0857A6; margin:10px; padding:0 0 0 10px;">'
                               'Вторник, 5 марта 2024, 10:02 +03:00 от Анна Иванова &lt;anna@example.ru&gt;:<br>'
                               f'<div id=""><div class="js-helper js-readmsg-msg">{original_html(ru)}</div></div>'
                               '</blockquote></body></html>', reply_text(ru), ru),
        html_case("hotmail-stop-spelling", f'<html><body><div dir="ltr">{divs(reply)}<br><br><hr id="stopSpelling">'
                                           'Date: Tue, 5 Mar 2024 10:02:00 +0000<br>From: ann@example.com<br>'
                                           'To: bob@example.com<br>Subject: Slides<br><br>'
                                           f'{original}</div></body></html>', reply),
        html_case("hotmail-stop-spelling-fr", f'<html><body><div dir="ltr">{divs(reply_text(fr))}<br><br><hr id="stopSpelling">'
                                              'Date : Tue, 5 Mar 2024 10:02:00 +0100<br>De : claire@example.fr<br>'
                                              'À : julien@example.fr<br>Objet : Diapositives<br><br>'
                                              f'{original_html(fr)}</div></body></html>', reply_text(fr), fr),
        html_case("yahoo", f'<html><body><div class="ydp1a2b3c4dyahoo-style-wrap">{divs(reply)}</div>'
                           '<div id="yahoo_quoted_1234567890" class="yahoo_quoted"><div style="font-family:Helvetica;'
                           'font-size:13px;color:#26282a"><div>On Tuesday, March 5, 2024, 10:02:41 AM GMT+1, Ann Smith '
                           f'&lt;ann@example.com&gt; wrote:</div><div><br></div><div><br></div>{original}</div></div>'
                           '</body></html>', reply),
        html_case("zimbra", f'<html><body><div>{divs(reply)}</div><hr id="zwchr"><div><b>From: </b>"Ann Smith" '
                            '&lt;ann@example.com&gt;<br><b>To: </b>"Bob Jones" &lt;bob@example.com&gt;<br><b>Sent: </b>'
                            'Tuesday, March 5, 2024 10:02:41 AM<br><b>Subject: </b>Slides<br></div><br>'
                            f'<div>{original}</div></body></html>', reply),
        html_case("protonmail", f'<div>{divs(reply)}</div><div class="protonmail_quote">On Tuesday, March 5th, 2024 at '
                                '10:02, Ann Smith &lt;ann@example.com&gt; wrote:<br><blockquote class="protonmail_quote" '
                                f'type="cite">{original}</blockquote><br></div>', reply),
        html_case("gmail-with-plain-twin", gmail(en), reply, body=f"{reply}\n\n{GMAIL['en'].format(n=en.author, a=en.author_mail)}"
                                                                   f"\n\n> {en.original}\n>\n> Ann\n>\n"),
        html_case("outlook-with-plain-twin", outlook_desktop(en, "en"), reply,
                  body=f"{reply}\n\nFrom: Ann Smith <ann@example.com>\nSent: Tuesday, March 5, 2024 10:02 AM\n"
                       f"To: Bob Jones <bob@example.com>\nSubject: Slides\n\n{en.original}\n"),
        html_case("generic-blockquote-after-attribution", f'<p>{escape(en.reply)}</p><p>Bob</p><p>On Tue, Mar 5, 2024 at '
                                                          '10:02 AM Ann Smith &lt;ann@example.com&gt; wrote:</p>'
                                                          f'<blockquote>{original}</blockquote>', reply),
    ]
    return result
