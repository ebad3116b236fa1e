"""Labels the lines of a corpus reply as new text, quote, attribution, signature or list footer.

Used by scripts/quality/derive.py. The evidence is the thread itself: a line is quoted when it carries
`>` or when its words reproduce an earlier message of the thread; an attribution or header block is the
short block right above such lines. Everything that is not clearly one of those stays new text, and
anything unusual raises a flag so that the reviewer reads the case with that doubt in mind.
"""

import re

ATTRIBUTION_END = re.compile(
    r"(wrote|writes|said|schrieb|a écrit|escribió|ha scritto|escreveu|schreef|skrev|napisał\(a\)|pisze"
    r"|пишет|написал\(а\)|kirjoitti|写道|のメッセージ|>)\s*:\s*$|\bschrieb\b.*:\s*$", re.IGNORECASE)
ATTRIBUTION_START = re.compile(r"^(On|Le|Am|El|Il|Op|Em|Den|W dniu)\s")
QUOTING_LINE = re.compile(r"^(Quoting|Zitat von|Citando|Cytuję)\b.*:\s*$")
FROM_FIELD = r"(From|Von|De|Da|Van|Från|Fra|Od|От|Від|Feladó|Lähettäjä|Kimden|发件人|寄件者|差出人)"
HEADER_FIELD = re.compile(
    r"^\s*\*?(" + FROM_FIELD[1:-1] + r"|Sent|Date|To|Cc|Subject|Gesendet|An|Betreff|Envoyé|À|Objet|Inviato"
    r"|Oggetto|发送时间|收件人|抄送|主题|寄件日期|收件者|主旨)\*?\s?[:：]", re.IGNORECASE)
SEPARATOR = re.compile(
    r"^\s*(-{2,}\s*(Original Message|Ursprüngliche Nachricht|Message d'origine|Forwarded message)\s*-{2,}"
    r"|_{10,})\s*$", re.IGNORECASE)
MOBILE_FOOTER = re.compile(
    r"^\s*(Sent from |Sent via |Get Outlook for |Envoyé de |Von meinem |Gesendet von |Enviado desde |Inviato da "
    r"|Verzonden vanaf |Sendt fra |Skickat från )", re.IGNORECASE)
LIST_RULE = re.compile(r"^_{20,}\s*$")
RULE = re.compile(r"^\s*([-_=])\1{2,}\s*$")
ARCHIVE_PART = re.compile(r"^-{5,} next part -{5,}$")
FOOTER_WORDS = re.compile(r"mailing list|unsubscribe|listinfo|dezabonare|abbestellen", re.IGNORECASE)
CONTACT = re.compile(r"(\+?\d[\d ().-]{7,}\d|https?://|www\.|\b(tel|phone|mobile|fax|cell)\b)", re.IGNORECASE)


def is_quoted(line):
    return line.lstrip().startswith(">")


def is_blank(line):
    return not line.strip()


def reproduces(line, streams):
    """True when the line's words (four or more) appear in this order in an earlier message."""
    words = re.findall(r"\w+", line.lower())
    if len(words) < 4:
        return False
    needle = " " + " ".join(words) + " "
    return any(needle in stream for stream in streams)


def next_content(lines, index):
    """Index of the first non-blank line after `index`, or None."""
    for cursor in range(index + 1, len(lines)):
        if not is_blank(lines[cursor]):
            return cursor
    return None


def attribution_start(lines, index):
    """First line of an attribution ending at `index` (wrapped over up to three lines), or None."""
    line = lines[index].rstrip()
    if not (ATTRIBUTION_END.search(line) or QUOTING_LINE.match(line)) or len(line) > 250:
        return None
    start = index
    # "On Tue, 5 Mar 2024 at 10:02, Ann <ann@x.org>\nwrote:": grow upward while the block is unfinished.
    while start > 0 and index - start < 2 and not is_blank(lines[start - 1]) and not is_quoted(lines[start - 1]):
        above = lines[start - 1].strip()
        if ATTRIBUTION_START.match(above) and len(" ".join(l.strip() for l in lines[start - 1:index + 1])) <= 300:
            start -= 1
        elif not ATTRIBUTION_START.match(lines[start].strip()) and len(lines[start].strip()) < 40 \
                and not above.endswith((".", "!", "?")):
            start -= 1  # a short fragment ("wrote:", "<ann@x.org> wrote:") continues the line above
        else:
            break
    return start


def classify_lines(lines, streams):
    """Per-line labels and the flags a reviewer should know about."""
    labels = ["new"] * len(lines)
    flags = set()
    for index, line in enumerate(lines):
        if is_blank(line):
            labels[index] = "blank"
        elif is_quoted(line):
            labels[index] = "quote"

    # An Outlook-style header block or separator on an unquoted line: the original follows, to the end.
    for index, line in enumerate(lines):
        if labels[index] != "new":
            continue
        following = next_content(lines, index)
        if RULE.match(line) and following is not None and header_block_at(lines, following):
            block = True  # Outlook's "________________________________" above the header block
        else:
            block = header_block_at(lines, index)
        if block or SEPARATOR.match(line) and not LIST_RULE.match(line) or is_forward_rule(line):
            if is_forward_rule(line):
                flags.add("forward")
            flags.add("header-block")
            cut_from(labels, index, "attribution")
            break

    # Attributions right above a quote, or above unquoted lines that reproduce an earlier message.
    for index, line in enumerate(lines):
        if labels[index] != "new":
            continue
        following = next_content(lines, index)
        if following is None:
            if ATTRIBUTION_END.search(line):
                flags.add("dangling-attribution")
            continue
        start = attribution_start(lines, index)
        if start is None:
            continue
        if labels[following] == "quote":
            for cursor in range(start, index + 1):
                labels[cursor] = "attribution"
        elif reproduces(lines[following], streams):
            flags.add("unquoted-original")
            for cursor in range(start, index + 1):
                labels[cursor] = "attribution"
            cut_from(labels, following, "quote")

    mark_footers(lines, labels)
    mark_signatures(lines, labels, flags)

    quoted_words = [l for i, l in enumerate(lines) if labels[i] == "quote"]
    if quoted_words and not any(reproduces(l.lstrip(" >"), streams) for l in quoted_words):
        flags.add("quote-not-in-thread")
    for index, line in enumerate(lines):
        if labels[index] == "new" and reproduces(line, streams):
            flags.add("new-reproduces-earlier")
        if labels[index] == "new" and ATTRIBUTION_END.search(line):
            flags.add("wrote-in-new")
    news = [i for i, label in enumerate(labels) if label == "new"]
    if news and any(CONTACT.search(lines[i]) for i in news[-4:]):
        flags.add("contact-at-end")
    if not any(label in ("quote", "attribution") for label in labels):
        flags.add("no-quote")
    return labels, flags


def is_forward_rule(line):
    return bool(re.match(r"^\s*-{5,}\s*Forwarded message\s*-{5,}\s*$", line, re.IGNORECASE)) or \
        line.strip().lower() == "begin forwarded message:"


def header_block_at(lines, index):
    """True when two or more header fields (From plus Sent/Date/To/Subject) start at `index`."""
    if not re.match(r"^\s*\*?" + FROM_FIELD + r"\*?\s?[:：]", lines[index], re.IGNORECASE):
        return False
    fields = 0
    for cursor in range(index, min(index + 8, len(lines))):
        if HEADER_FIELD.match(lines[cursor]):
            fields += 1
    return fields >= 3


def cut_from(labels, index, label):
    """Everything from `index` on is the quoted original (blank lines stay blank)."""
    labels[index] = label
    for cursor in range(index + 1, len(labels)):
        if labels[cursor] != "blank":
            labels[cursor] = "quote"


def mark_footers(lines, labels):
    """What a list or its archive appends: Mailman's "<list> mailing list" block after a rule, any
    closing block after a rule that talks about unsubscribing, and Pipermail's "next part" note."""
    for index, line in enumerate(lines):
        if labels[index] == "quote":
            continue
        rest = [i for i in range(index, len(lines)) if not is_blank(lines[i])]
        if ARCHIVE_PART.match(line.strip()) or \
                RULE.match(line) and len(rest) <= 8 and any(FOOTER_WORDS.search(lines[i]) for i in rest[1:4]):
            for cursor in rest:
                if labels[cursor] == "quote":
                    break
                labels[cursor] = "footer"


def mark_signatures(lines, labels, flags):
    """From a "-- " (or bare "--") line to the next quote; a mobile footer ending a block of new text."""
    index = 0
    while index < len(lines):
        if labels[index] == "new" and lines[index].rstrip() == "--":
            flags.add("signature")
            cursor = index
            while cursor < len(lines) and labels[cursor] in ("new", "blank", "footer"):
                if labels[cursor] == "new":
                    labels[cursor] = "signature"
                cursor += 1
            index = cursor
            continue
        if labels[index] == "new" and MOBILE_FOOTER.match(lines[index]):
            following = next_content(lines, index)
            if following is None or labels[following] != "new":
                flags.add("mobile-footer")
                labels[index] = "signature"
        index += 1


def labelled_segments(lines, labels):
    """Runs of lines as (kind, [(label, line)]): kind is new, quote (quotes and attributions), drop
    (signatures and footers) or blank."""
    kind_of = {"new": "new", "quote": "quote", "attribution": "quote", "signature": "drop",
               "footer": "drop", "blank": "blank"}
    segments = []
    for label, line in zip(labels, lines):
        kind = kind_of[label]
        if segments and segments[-1][0] == kind:
            segments[-1][1].append((label, line))
        else:
            segments.append((kind, [(label, line)]))
    # A blank run between two parts of one quote belongs to the quote.
    merged = []
    for kind, items in segments:
        if merged and kind == "quote" and len(merged) >= 2 and merged[-1][0] == "blank" and merged[-2][0] == "quote":
            blank = merged.pop()
            merged[-1] = ("quote", merged[-1][1] + blank[1] + items)
        else:
            merged.append((kind, items))
    return merged
