"""Reading corpus messages the way chatmail's text pipeline does, for scripts/quality/derive.py.

Standard library only. The body choice mirrors MailText's BodySelector and TextPipeline.isRealTwin, so
an expected text is derived from the same part the pipeline will read; line joining mirrors the
Unwrapper's greedy-wrap test closely enough that a reviewer only has to check the odd paragraph.
"""

import email
import email.policy
import re

HTML_ONLY_STUBS = [
    "view this email in your browser", "view it in your browser", "html-capable", "requires html",
    "does not support html", "html version of this", "enable html", "this is an html message",
]


def parse(raw):
    return email.message_from_bytes(raw, policy=email.policy.compat32)


def header(message, name):
    value = message.get(name)
    return "" if value is None else str(value)


def decoded_text(part):
    payload = part.get_payload(decode=True) or b""
    charset = (part.get_content_charset() or "utf-8").lower()
    try:
        return payload.decode(charset, "replace")
    except LookupError:
        return payload.decode("utf-8", "replace")


def select_body(part, depth=0):
    """(plain, html) parts as BodySelector chooses them: alternatives keep their last plain and html,
    related uses its root, other multiparts their first child with a body."""
    if depth > 20 or (part.get("Content-Disposition") or "").lower().startswith("attachment"):
        return None, None
    kind = part.get_content_type()
    if kind == "text/plain":
        return part, None
    if kind == "text/html":
        return None, part
    if kind == "multipart/alternative":
        plain = html = None
        for child in part.get_payload():
            found_plain, found_html = select_body(child, depth + 1)
            plain = found_plain or plain
            html = found_html or html
        return plain, html
    if kind == "multipart/related":
        children = part.get_payload()
        return select_body(children[0], depth + 1) if children else (None, None)
    if part.is_multipart():
        for child in part.get_payload():
            found = select_body(child, depth + 1)
            if found != (None, None):
                return found
    return None, None


def visible_length(html):
    text = re.sub(r"(?is)<(script|style)\b.*?</\1\s*>", "", html)
    text = re.sub(r"(?s)<[^>]*>", "", text)
    return sum(1 for c in text if not c.isspace())


def is_real_twin(plain, html):
    length = sum(1 for c in plain if not c.isspace())
    if length == 0:
        return False
    lowered = plain[:400].lower()
    if length < 400 and any(stub in lowered for stub in HTML_ONLY_STUBS):
        return False
    return length * 3 >= visible_length(html)


def plain_body(message):
    """The decoded text/plain body the pipeline reads, flowed-decoded, or None when it reads HTML."""
    plain, html = select_body(message)
    if plain is None:
        return None
    text = decoded_text(plain).replace("\r\n", "\n").replace("\r", "\n")
    if html is not None and not is_real_twin(text, decoded_text(html)):
        return None
    params = {k.lower(): (v or "").lower() for k, v in plain.get_params() or []}
    if params.get("format") == "flowed":
        return decode_flowed(text, params.get("delsp") == "yes"), True
    return text, False


def decode_flowed(text, delsp):
    """RFC 3676: a line ending in a space continues on the next line of the same quote depth."""
    out, current, depth_of_current = [], None, None
    for line in text.split("\n"):
        depth = len(line) - len(line.lstrip(">"))
        body = line[depth:]
        if body.startswith(" "):
            body = body[1:]  # space-stuffing
        flowed = body.endswith(" ") and body != "-- "
        if current is not None and depth == depth_of_current:
            current += body[:-1] if (flowed and delsp) else body
        else:
            if current is not None:
                out.append(current)
            current = (">" * depth + (" " if depth else "")) + (body[:-1] if (flowed and delsp) else body)
            depth_of_current = depth
        if not flowed:
            out.append(current)
            current = None
    if current is not None:
        out.append(current)
    return "\n".join(out)


# -- line joining ---------------------------------------------------------------------------------

LIST_ITEM = re.compile(r"^([-*+•]\s|\d{1,3}[.)]\s|[a-zA-Z]\)\s)")
FIELD = re.compile(r"^[A-Za-z0-9-]{2,30}:\s")
URL_ONLY = re.compile(r"^<?(https?://|www\.|mailto:)\S+>?$")
RULE = re.compile(r"^([-=_*~#])\1{2,}$")
PATCH_START = re.compile(r"^(diff --git |--- a/|@@ -|Index: )")


def kind(line):
    """blank, quote, list, code, url, structural or prose, as the Unwrapper classifies lines."""
    body = line.strip()
    indent = len(line) - len(line.lstrip(" \t"))
    if not body:
        return "blank"
    if body.startswith(">"):
        return "quote"
    if body.startswith("↪"):
        return "structural"
    if indent < 8 and LIST_ITEM.match(body):
        return "list"
    if indent >= 4 or line.startswith("\t"):
        return "code"
    if URL_ONLY.match(body):
        return "url"
    if RULE.match(body):
        return "structural"
    if body.startswith(("$ ", "# ", "% ", ">>> ")) or body[-1] in ";{}":
        return "code"
    visible = [c for c in body if c != " "]
    symbols = sum(1 for c in visible if c in "{}();=<>[]")
    if sum(1 for c in visible if c == "|") >= 2 or (symbols >= 3 and symbols * 10 >= len(visible)):
        return "code"
    return "prose"


def unwrap(text):
    """Joins lines a client hard-wrapped: the next line's first word would not have fitted on a line at
    least 60% as wide as the widest prose line (50 to 100 columns). Short sign-off lines, fields, lists,
    code, links, quotes and everything from a patch on stay as they are."""
    lines = text.split("\n")
    width = 0
    for line in lines:
        if kind(line) in ("prose", "list"):
            length = len(line.rstrip())
            if length > 100 and " " in line.strip():
                return text
            if length <= 100:
                width = max(width, length)
    if width < 50:
        return text
    out, in_list = [], False
    for index, line in enumerate(lines):
        if PATCH_START.match(line.strip()):
            return "\n".join(out + lines[index:])
        if out and index > 0 and can_join(lines[index - 1], line, width, in_list):
            joined = out[-1].rstrip()
            glue = "" if joined.endswith("-") and joined[-2:-1].isalpha() and line.strip()[:1].islower() else " "
            out[-1] = joined + glue + line.strip()
            continue
        out.append(line)
        k = kind(line)
        in_list = k == "list" or (in_list and k == "prose" and line[:1] in " \t")
    return "\n".join(out)


def can_join(previous, line, width, in_list):
    if kind(previous) not in ("prose", "list") or kind(line) != "prose":
        return False
    if line[:1] in " \t" and not in_list:
        return False
    body, before = line.strip(), previous.rstrip()
    if before.endswith((":", "：")) or FIELD.match(body):
        return False
    if len(before) < int(width * 0.6):
        return False
    few_words = body.count(" ") + 1 <= 3
    ends_sentence = before.rstrip("\"')”")[-1:] in (".", "!", "?", "。")
    if few_words and (body.endswith((",", "，")) or ends_sentence):
        return False
    return len(before) + 1 + len(body.split()[0]) > width - 2


def tidy(text):
    """Trailing spaces off, blank-line runs collapsed, blank ends dropped: what the pipeline's tidy does."""
    out, pending = [], False
    for line in text.split("\n"):
        line = line.rstrip()
        if not line.strip():
            pending = bool(out)
            continue
        if pending:
            out.append("")
        pending = False
        out.append(line)
    return "\n".join(out)
