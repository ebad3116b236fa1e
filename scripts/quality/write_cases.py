#!/usr/bin/env python3
"""Writes the hand-made evaluation cases of Fixtures/quality from each mail client's reply format.

Every case is a whole RFC 5322 message (plain, HTML or multipart/alternative, CRLF line endings) and
the bubble text the sender meant: the new text only. The cases themselves live in cases_*.py; this
file builds the messages and writes them. The output is deterministic (fixed dates, Message-IDs and
MIME boundaries), so running it again changes nothing unless a case changed.

Usage: write_cases.py [--out Fixtures/quality]
"""

import argparse
import email.policy
import os
import shutil
import sys
from email.headerregistry import Address
from email.message import EmailMessage

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
POLICY = email.policy.SMTP  # CRLF, RFC 2047 for non-ASCII headers, as messages travel

# Reply subject prefixes as clients write them in each language.
REPLY_PREFIX = {"de": "AW: ", "sv": "SV: ", "da": "SV: ", "nb": "SV: ", "fi": "VS: ", "pl": "Odp: ",
                "it": "R: ", "tr": "YNT: ", "fr": "RE: ", "es": "RE: ", "nl": "RE: "}


class Case:
    """One case: where it goes, the message bytes and the expected bubble."""

    def __init__(self, category, name, message, expected):
        self.category, self.name, self.message, self.expected = category, name, message, expected


def mail(name, body=None, html=None, *, sender=("Bob Jones", "bob@example.com"),
         to=("Ann Smith", "ann@example.com"), subject="Re: Slides", flowed=False, reply=True, extra=None):
    """A message with a plain body, an HTML body, or both as multipart/alternative.

    `body` and `html` are written with "\\n" line breaks; the policy turns them into CRLF."""
    message = EmailMessage(policy=POLICY)
    message["From"] = Address(display_name=sender[0], addr_spec=sender[1])
    message["To"] = Address(display_name=to[0], addr_spec=to[1])
    message["Subject"] = subject
    message["Date"] = "Tue, 05 Mar 2024 11:15:00 +0000"
    message["Message-ID"] = f"<{name}@quality.example>"
    if reply:
        message["In-Reply-To"] = f"<original-{name}@quality.example>"
        message["References"] = f"<original-{name}@quality.example>"
    for key, value in (extra or {}).items():
        message[key] = value
    params = {"format": "flowed"} if flowed else {}
    if body is not None:
        message.set_content(body, subtype="plain", charset="utf-8", params=params)
        if html is not None:
            message.add_alternative(html, subtype="html", charset="utf-8")
            message.set_boundary(f"=_alt_{name}")
    elif html is not None:
        message.set_content(html, subtype="html", charset="utf-8")
    else:
        message.set_content("", subtype="plain", charset="utf-8")
    return bytes(message)


def subject_for(language):
    return REPLY_PREFIX.get(language.code, "Re: ") + language.subject


def people(language):
    """(sender, to) for a reply from the language's replier to its author."""
    return (language.replier, language.replier_mail), (language.author, language.author_mail)


def quote(text, prefix="> "):
    """`text` quoted line by line, a bare ">" on blank lines, as clients write it."""
    return "\n".join(prefix.rstrip() if not line.strip() else prefix + line for line in text.split("\n"))


def all_cases():
    import cases_attribution
    import cases_html
    import cases_misc
    import cases_outlook
    cases = []
    for module in (cases_attribution, cases_outlook, cases_html, cases_misc):
        cases += module.cases()
    names = [f"{case.category}/{case.name}" for case in cases]
    duplicates = {name for name in names if names.count(name) > 1}
    if duplicates:
        raise SystemExit(f"duplicate case names: {sorted(duplicates)}")
    return cases


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=os.path.join(ROOT, "Fixtures", "quality"))
    args = parser.parse_args()
    cases = all_cases()
    categories = sorted({case.category for case in cases})
    for category in categories:
        shutil.rmtree(os.path.join(args.out, category), ignore_errors=True)
    for case in cases:
        folder = os.path.join(args.out, case.category)
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, case.name + ".eml"), "wb") as handle:
            handle.write(case.message)
        with open(os.path.join(folder, case.name + ".expected.txt"), "w", encoding="utf-8") as handle:
            handle.write(case.expected.strip("\n") + "\n")
    for category in categories:
        print(f"{category}: {sum(1 for case in cases if case.category == category)}")
    print(f"total: {len(cases)}")


if __name__ == "__main__":
    main()
