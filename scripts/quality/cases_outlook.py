"""Outlook's From/Sent/To/Subject header block above an unquoted original, in 37 languages, and the
"-----Original Message-----" separators of Outlook, Outlook Express, Samsung Email and Thunderbird."""

from languages import BY_CODE
from outlook_formats import ORIGINAL_MESSAGE, OUTLOOK
from write_cases import Case, mail, people, subject_for


def first_name(full):
    return full.split()[0] if " " in full else full


def reply_text(language):
    return f"{language.reply}\n\n{first_name(language.replier)}"


def header_lines(code, language, cc=False, bold=False):
    block = OUTLOOK[code]
    mark = "*" if bold else ""
    lines = [
        f"{mark}{block.sender}:{mark} {language.author} <{language.author_mail}>",
        f"{mark}{block.sent}:{mark} {block.date}",
        f"{mark}{block.to}:{mark} {language.replier} <{language.replier_mail}>",
    ]
    if cc:
        lines.append(f"{mark}Cc:{mark} Team <team@example.com>")
    lines.append(f"{mark}{block.subject}:{mark} {language.subject}")
    return "\n".join(lines)


def header_blocks():
    """Three layouts in turn: Outlook desktop (no rule), Outlook web and mobile (a rule of underscores),
    and the plain-text alternative of an HTML reply (field names in asterisks, a Cc line)."""
    cases = []
    for index, code in enumerate(OUTLOOK):
        language = BY_CODE[code]
        layout = index % 3
        if layout == 0:
            block = header_lines(code, language)
        elif layout == 1:
            block = "________________________________\n" + header_lines(code, language)
        else:
            block = header_lines(code, language, cc=True, bold=True)
        body = (f"{reply_text(language)}\n\n{block}\n\n{language.original}\n\n"
                f"{first_name(language.author)}\n")
        sender, to = people(language)
        name = f"outlook-{code.lower()}"
        cases.append(Case("outlook-header-block", name,
                          mail(name, body, sender=sender, to=to, subject=subject_for(language)),
                          reply_text(language)))
    return cases


def separators():
    """Outlook's "-----Original Message-----" with the header block below it, per language."""
    cases = []
    for code, separator in ORIGINAL_MESSAGE.items():
        language = BY_CODE[code]
        block = header_lines(code, language) if code in OUTLOOK else header_lines("en", language)
        body = f"{reply_text(language)}\n\n{separator}\n{block}\n\n{language.original}\n"
        sender, to = people(language)
        name = f"original-message-{code.lower()}"
        cases.append(Case("separators", name, mail(name, body, sender=sender, to=to, subject=subject_for(language)),
                          reply_text(language)))
    en, de, fr = BY_CODE["en"], BY_CODE["de"], BY_CODE["fr"]
    samsung = [
        ("samsung-english", en, "-------- Original message --------",
         "From: Ann Smith <ann@example.com> \nDate: 05/03/2024 10:02 (GMT+00:00) \nTo: Bob Jones <bob@example.com> \n"
         "Subject: Slides ", "Sent from my Galaxy"),
        ("samsung-german", de, "-------- Originalnachricht --------",
         "Von: Anna Schmidt <anna@example.de> \nDatum: 05.03.24 10:02 (GMT+01:00) \nAn: Jonas Weber <jonas@example.de> \n"
         "Betreff: Folien ", "Von meinem Galaxy gesendet"),
        ("samsung-french", fr, "-------- Message d'origine --------",
         "De : Claire Martin <claire@example.fr> \nDate : 05/03/2024 10:02 (GMT+01:00) \n"
         "À : Julien Dubois <julien@example.fr> \nObjet : Diapositives ", "Envoyé depuis mon appareil Galaxy"),
    ]
    for name, language, separator, block, footer in samsung:
        body = f"{reply_text(language)}\n\n\n{footer}\n\n\n{separator}\n{block}\n\n{language.original}\n"
        sender, to = people(language)
        cases.append(Case("separators", name, mail(name, body, sender=sender, to=to, subject=subject_for(language)),
                          reply_text(language)))
    reply = reply_text(en)
    others = [
        ("outlook-express", f"{reply}\n\n----- Original Message ----- \nFrom: \"Ann Smith\" <ann@example.com>\n"
                            "To: \"Bob Jones\" <bob@example.com>\nSent: Tuesday, March 05, 2024 10:02 AM\n"
                            f"Subject: Slides\n\n\n> {en.original}\n> \n"),
        ("thunderbird-original-message", f"{reply}\n\n-------- Original Message --------\nSubject: \tSlides\n"
                                         "Date: \tTue, 5 Mar 2024 10:02:00 +0000\nFrom: \tAnn Smith <ann@example.com>\n"
                                         f"To: \tBob Jones <bob@example.com>\n\n\n\n{en.original}\n"),
        ("outlook-2010-mailto", f"{reply}\n\nFrom: Ann Smith [mailto:ann@example.com] \n"
                                "Sent: Tuesday, March 05, 2024 10:02 AM\nTo: Bob Jones\nSubject: Slides\n\n"
                                f"{en.original}\n"),
        ("lotus-notes-dashes", f"{reply}\n\n\n\n\nFrom:\tAnn Smith <ann@example.com>\nTo:\tBob Jones <bob@example.com>\n"
                               f"Date:\t05/03/2024 10:02\nSubject:\tSlides\n\n\n\n{en.original}\n"),
        ("underscore-rule-only", f"{reply}\n\n________________________________________\nFrom: Ann Smith\n"
                                 f"Sent: 05 March 2024 10:02\nTo: Bob Jones\nSubject: Slides\n\n{en.original}\n"),
    ]
    for name, body in others:
        cases.append(Case("separators", name, mail(name, body), reply))
    return cases


def cases():
    return header_blocks() + separators()
