#!/usr/bin/env python3
"""The peer pipeline chatmail's text pipeline is compared with, on the same inputs.

Python's `email` package (policy.default) parses each message, the body is chosen (plain, else HTML via
html2text), and email-reply-parser strips the quoted reply. The sanitizer peers, bleach and nh3, clean
the very HTML bodies chatmail's sanitizer is timed on (exported by `chatmail-bench mailtext`).
Prints one JSON object of medians.
"""
import argparse, email, email.policy, json, os, statistics, time

import bleach, html2text, nh3
from email_reply_parser import EmailReplyParser

TAGS = {"a", "abbr", "b", "blockquote", "br", "caption", "center", "cite", "code", "col", "colgroup", "dd", "del",
        "div", "dl", "dt", "em", "font", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i", "img", "ins", "kbd", "li",
        "mark", "ol", "p", "pre", "q", "s", "small", "span", "strike", "strong", "sub", "sup", "table", "tbody", "td",
        "tfoot", "th", "thead", "tr", "tt", "u", "ul"}
ATTRIBUTES = {"*": ["title", "dir", "lang", "align"], "a": ["href", "name"], "img": ["src", "alt", "width", "height"],
              "td": ["colspan", "rowspan"], "th": ["colspan", "rowspan"], "font": ["face", "size", "color"]}


def text_of(raw):
    message = email.message_from_bytes(raw, policy=email.policy.default)
    try:
        body = message.get_body(preferencelist=("plain", "html"))
        content = body.get_content() if body is not None else ""
        if body is not None and body.get_content_type() == "text/html":
            content = html2text.html2text(content)
    except Exception:
        content = ""  # the peer gives up on what it cannot decode; chatmail never does
    return EmailReplyParser.parse_reply(content)


def median_seconds(runs, work):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", required=True)
    parser.add_argument("--html", required=True)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    files = sorted(os.path.join(root, name) for root, _, names in os.walk(args.corpus) for name in names if name.endswith(".eml"))
    messages = [open(path, "rb").read() for path in files]
    htmls = [open(os.path.join(args.html, name), encoding="utf-8").read() for name in sorted(os.listdir(args.html))]
    total = sum(len(m) for m in messages)
    html_bytes = sum(len(h.encode("utf-8")) for h in htmls)
    pipeline = median_seconds(args.runs, lambda: [text_of(m) for m in messages])
    clean = lambda h: bleach.clean(h, tags=TAGS, attributes=ATTRIBUTES, protocols={"http", "https", "mailto"}, strip=True)
    bleach_seconds = median_seconds(args.runs, lambda: [clean(h) for h in htmls])
    nh3_seconds = median_seconds(args.runs, lambda: [nh3.clean(h) for h in htmls])
    print(json.dumps({
        "messages": len(messages), "pipelineSeconds": pipeline, "pipelineMBps": total / 1048576 / pipeline,
        "pipelineMessagesPerSecond": len(messages) / pipeline,
        "bleachMBps": html_bytes / 1048576 / bleach_seconds, "nh3MBps": html_bytes / 1048576 / nh3_seconds,
    }, sort_keys=True))


if __name__ == "__main__":
    main()
