"""Interleaved answers (the quotes they answer stay), signatures, mobile footers, forwards, empty
bodies, and negative cases whose words look like quote or signature markers but are the sender's text."""

from write_cases import Case, mail, quote

GMAIL_EN = "On Tue, Mar 5, 2024 at 10:02 AM Ann Smith <ann@example.com> wrote:"
REPLY = "Thanks, Tuesday at ten works for me. I will bring the slides.\n\nBob"
ORIGINAL = "Can we meet on Tuesday to go through the slides?\n\nAnn"
MARKER = "↪ Forwarded message from"


def interleaved():
    plain = ("Hi Ann,\n\nanswers inline.\n\n" + GMAIL_EN + "\n> Did the build pass on Linux?\n> And on macOS?\n\n"
             "Both pass now.\n\n> Can you tag the release?\n>\n> We need it by Friday.\n\nTagged as 1.4.0 this morning.\n\n"
             "Bob\n\n> Thanks!\n> Ann\n")
    plain_expected = ("Hi Ann,\n\nanswers inline.\n\n> Did the build pass on Linux?\n> And on macOS?\n\nBoth pass now.\n\n"
                      "> Can you tag the release?\n>\n> We need it by Friday.\n\nTagged as 1.4.0 this morning.\n\nBob")
    no_attribution = ("> Is the venue booked?\n\nYes, the small hall.\n\n> And the caterer?\n\nStill waiting for a quote.\n")
    german = ("Hallo Anna,\n\nAm Di., 5. März 2024 um 10:02 Uhr schrieb Anna Schmidt <anna@example.de>:\n"
              "> Hast du die Rechnung bekommen?\n\nJa, gestern.\n\n> Und ist sie schon bezahlt?\n\nNoch nicht, "
              "das mache ich heute.\n\nGruß\nJonas\n")
    german_expected = ("Hallo Anna,\n\n> Hast du die Rechnung bekommen?\n\nJa, gestern.\n\n> Und ist sie schon bezahlt?\n\n"
                       "Noch nicht, das mache ich heute.\n\nGruß\nJonas")
    outlook_style = ("Hi Bob,\n\n>Can you send the figures for March before the board meeting on\nThursday?\n\n"
                     "Attached.\n\n>And the headcount\nplan?\n\nNext week.\n\nAnn\n")
    trailing = (GMAIL_EN + "\n> Two questions.\n> First: is the room big enough?\n\nYes, forty seats.\n\n"
                "> Second: is there a projector?\n\nThere is one, and a spare.\n\n> Thanks,\n> Ann\n>\n> -- \n> Ann Smith\n")
    trailing_expected = ("> Two questions.\n> First: is the room big enough?\n\nYes, forty seats.\n\n"
                         "> Second: is there a projector?\n\nThere is one, and a spare.")
    code_review = ("On Tue, Mar 5, 2024 at 10:02 AM Ann Smith <ann@example.com> wrote:\n> +    let timeout = 30\n\n"
                   "Make this configurable, please.\n\n> +    retry(times: 3)\n\nThree is fine.\n")
    code_expected = "> +    let timeout = 30\n\nMake this configurable, please.\n\n> +    retry(times: 3)\n\nThree is fine."
    html = ('<div dir="ltr">Hi Ann, answers below.<br><br><div class="gmail_quote"><blockquote class="gmail_quote" '
            'style="margin:0px 0px 0px 0.8ex;border-left:1px solid rgb(204,204,204);padding-left:1ex">Is the room booked?'
            '</blockquote><div>Yes, room 4.</div><br><blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex;'
            'border-left:1px solid rgb(204,204,204);padding-left:1ex">Who brings the projector?</blockquote><div>I do.</div>'
            '</div></div>')
    return [
        Case("interleaved", "gmail-inline-answers", mail("inter-gmail", plain), plain_expected),
        Case("interleaved", "no-attribution", mail("inter-plain", no_attribution), no_attribution.strip()),
        Case("interleaved", "german", mail("inter-de", german, sender=("Jonas Weber", "jonas@example.de"),
                                           subject="AW: Rechnung"), german_expected),
        Case("interleaved", "continuation-lost-marker", mail("inter-outlook", outlook_style),
             outlook_style.strip()),
        Case("interleaved", "unanswered-tail-removed", mail("inter-trailing", trailing), trailing_expected),
        Case("interleaved", "code-review", mail("inter-code", code_review), code_expected),
        Case("interleaved", "gmail-html", mail("inter-html", html=html),
             "Hi Ann, answers below.\n\n> Is the room booked?\nYes, room 4.\n\n> Who brings the projector?\nI do."),
    ]


def signatures():
    sig = "-- \nBob Jones\nSenior Engineer, Example Ltd.\n+44 20 7946 0000 | https://example.com"
    disclaimer = ("-- \nBob Jones\n\nThis e-mail and any attachments are confidential and intended solely for the "
                  "addressee. If you have received it in error, please notify the sender and delete it.")
    html = ('<div dir="ltr"><div>Thanks, Tuesday at ten works for me. I will bring the slides.</div><div><br></div>'
            '<div>Bob</div><div><br></div>-- <br><div dir="ltr" class="gmail_signature" data-smartmail="gmail_signature">'
            '<div dir="ltr">Bob Jones<div>Senior Engineer, Example Ltd.</div></div></div></div>')
    return [
        Case("signatures", "dash-dash-space", mail("sig-standard", f"{REPLY}\n\n{sig}\n"), REPLY),
        Case("signatures", "dash-dash-space-above-quote",
             mail("sig-above-quote", f"{REPLY}\n\n{sig}\n\n{GMAIL_EN}\n{quote(ORIGINAL)}\n"), REPLY),
        Case("signatures", "bare-dash-dash", mail("sig-bare", f"{REPLY}\n\n--\nBob Jones\nExample Ltd.\n"), REPLY),
        Case("signatures", "disclaimer", mail("sig-disclaimer", f"{REPLY}\n\n{disclaimer}\n"), REPLY),
        Case("signatures", "sign-off-stays", mail("sig-sign-off", "Sounds good.\n\nBest regards,\nBob Jones\n"),
             "Sounds good.\n\nBest regards,\nBob Jones"),
        Case("signatures", "gmail-html-signature", mail("sig-html", html=html), REPLY),
        Case("signatures", "signature-and-iphone-footer",
             mail("sig-and-footer", f"{REPLY}\n\n{sig}\n\nSent from my iPhone\n"), REPLY),
        Case("signatures", "signature-under-bottom-post",
             mail("sig-bottom", f"{GMAIL_EN}\n{quote(ORIGINAL)}\n\nTuesday works.\n\n{sig}\n"), "Tuesday works."),
    ]


FOOTERS = [
    ("iphone-english", "Sent from my iPhone"), ("iphone-french", "Envoyé de mon iPhone"),
    ("iphone-german", "Von meinem iPhone gesendet"), ("iphone-spanish", "Enviado desde mi iPhone"),
    ("iphone-italian", "Inviato da iPhone"), ("iphone-dutch", "Verzonden vanaf mijn iPhone"),
    ("iphone-portuguese", "Enviado do meu iPhone"), ("iphone-swedish", "Skickat från min iPhone"),
    ("ipad-danish", "Sendt fra min iPad"), ("iphone-finnish", "Lähetetty iPhonesta"),
    ("iphone-polish", "Wysłane z iPhone'a"), ("iphone-russian", "Отправлено с iPhone"),
    ("iphone-japanese", "iPhoneから送信"), ("iphone-chinese", "发自我的iPhone"), ("iphone-czech", "Odesláno z iPhonu"),
    ("iphone-turkish", "iPhone'umdan gönderildi"), ("outlook-android-german", "Gesendet von Outlook für Android"),
    ("outlook-android-german-2", "Von Outlook für Android gesendet"), ("outlook-ios", "Get Outlook for iOS"),
    ("samsung", "Sent from my Galaxy"), ("yahoo-android", "Sent from Yahoo Mail on Android"),
    ("mail-for-windows", "Sent from Mail for Windows"),
    ("blackberry-bell", "Sent wirelessly from my BlackBerry device on the Bell network.\n"
                        "Envoyé sans fil par mon terminal mobile BlackBerry sur le réseau de Bell."),
]


def mobile_footers():
    cases = [Case("mobile-footers", name, mail(f"footer-{name}", f"On my way, ten minutes.\n\n{footer}\n"),
                  "On my way, ten minutes.") for name, footer in FOOTERS]
    cases.append(Case("mobile-footers", "iphone-above-quoted-attribution",
                      mail("footer-iphone-quote", f"On my way.\n\nSent from my iPhone\n\n> On 5 Mar 2024, at 10:02, "
                                                  f"Ann Smith <ann@example.com> wrote:\n> \n{quote(ORIGINAL)}\n"),
                      "On my way."))
    return cases


def forwards():
    gmail = (f"FYI, see below.\n\n---------- Forwarded message ---------\nFrom: Ann Smith <ann@example.com>\n"
             "Date: Tue, Mar 5, 2024 at 10:02 AM\nSubject: Slides\nTo: Bob Jones <bob@example.com>\n\n\n"
             "Can we meet on Tuesday to go through the slides?\n")
    expected = f"FYI, see below.\n\n{MARKER} Ann Smith <ann@example.com>\n\nCan we meet on Tuesday to go through the slides?"
    apple = ("FYI\n\nBegin forwarded message:\n\nFrom: Ann Smith <ann@example.com>\nSubject: Slides\n"
             "Date: 5 March 2024 at 10:02:00 GMT\nTo: Bob Jones <bob@example.com>\n\nCan we meet on Tuesday?\n")
    german = ("Zur Info.\n\n---------- Weitergeleitete Nachricht ---------\nVon: Anna Schmidt <anna@example.de>\n"
              "Date: Di., 5. März 2024 um 10:02 Uhr\nSubject: Folien\nTo: Jonas Weber <jonas@example.de>\n\n\n"
              "Können wir uns am Dienstag treffen?\n")
    thunderbird = ("See below.\n\n-------- Forwarded Message --------\nSubject: \tSlides\n"
                   "Date: \tTue, 5 Mar 2024 10:02:00 +0000\nFrom: \tAnn Smith <ann@example.com>\n"
                   "To: \tBob Jones <bob@example.com>\n\n\n\nCan we meet on Tuesday?\n")
    bare = ("---------- Forwarded message ---------\nFrom: Ann Smith <ann@example.com>\nDate: Tue, Mar 5, 2024 at 10:02 AM\n"
            "Subject: Slides\nTo: Bob Jones <bob@example.com>\n\n\nCan we meet on Tuesday?\n")
    quoted_apple = ("Have a look.\n\n> Begin forwarded message:\n> \n> From: Ann Smith <ann@example.com>\n"
                    "> Subject: Slides\n> Date: 5 March 2024 at 10:02:00 GMT\n> To: Bob Jones <bob@example.com>\n> \n"
                    "> Can we meet on Tuesday?\n")
    outlook = ("FYI\n\n________________________________\nFrom: Ann Smith <ann@example.com>\n"
               "Sent: Tuesday, March 5, 2024 10:02 AM\nTo: Bob Jones <bob@example.com>\nSubject: Slides\n\n"
               "Can we meet on Tuesday?\n")
    html = ('<div dir="ltr">FYI<br><br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">---------- Forwarded '
            'message ---------<br>From: <strong class="gmail_sendername" dir="auto">Ann Smith</strong> <span dir="auto">'
            '&lt;<a href="mailto:ann@example.com">ann@example.com</a>&gt;</span><br>Date: Tue, Mar 5, 2024 at 10:02 AM<br>'
            'Subject: Slides<br>To: Bob Jones &lt;<a href="mailto:bob@example.com">bob@example.com</a>&gt;<br></div><br><br>'
            '<div dir="ltr">Can we meet on Tuesday?</div></div></div>')
    return [
        Case("forwards", "outlook-fw", mail("fwd-outlook", outlook, subject="FW: Slides", reply=False),
             f"FYI\n\n{MARKER} Ann Smith <ann@example.com>\n\nCan we meet on Tuesday?"),
        Case("forwards", "gmail-html", mail("fwd-gmail-html", html=html, subject="Fwd: Slides", reply=False),
             f"FYI\n\n{MARKER} Ann Smith <ann@example.com>\n\nCan we meet on Tuesday?"),
        Case("forwards", "gmail-with-note", mail("fwd-gmail", gmail, subject="Fwd: Slides", reply=False), expected),
        Case("forwards", "apple-begin-forwarded", mail("fwd-apple", apple, subject="Fwd: Slides", reply=False),
             f"FYI\n\n{MARKER} Ann Smith <ann@example.com>\n\nCan we meet on Tuesday?"),
        Case("forwards", "gmail-german", mail("fwd-de", german, subject="WG: Folien", reply=False,
                                              sender=("Jonas Weber", "jonas@example.de")),
             f"Zur Info.\n\n{MARKER} Anna Schmidt <anna@example.de>\n\nKönnen wir uns am Dienstag treffen?"),
        Case("forwards", "thunderbird-inline", mail("fwd-tb", thunderbird, subject="Fwd: Slides", reply=False),
             f"See below.\n\n{MARKER} Ann Smith <ann@example.com>\n\nCan we meet on Tuesday?"),
        Case("forwards", "without-note", mail("fwd-bare", bare, subject="Fwd: Slides", reply=False),
             f"{MARKER} Ann Smith <ann@example.com>\n\nCan we meet on Tuesday?"),
        Case("forwards", "apple-quoted-headers", mail("fwd-apple-quoted", quoted_apple, subject="Fwd: Slides", reply=False),
             f"Have a look.\n\n{MARKER} Ann Smith <ann@example.com>\n\nCan we meet on Tuesday?"),
    ]


def empty():
    quote_only = f"{GMAIL_EN}\n{quote(ORIGINAL)}\n"
    return [
        Case("empty", "empty-plain", mail("empty-plain", ""), ""),
        Case("empty", "blank-lines-only", mail("empty-blank", "\n\n   \n\n"), ""),
        Case("empty", "html-line-break-only", mail("empty-html", html='<div dir="ltr"><br></div>'), ""),
        Case("empty", "alternative-both-empty", mail("empty-alt", "\n", html="<div><br></div>"), ""),
        # A bubble is never empty when the message has text: a reply that is all quote shows the quote.
        Case("empty", "quote-only-keeps-quote", mail("empty-quote-only", quote_only), quote_only.strip()),
        Case("empty", "footer-only-keeps-footer", mail("empty-footer-only", "Sent from my iPhone\n"), "Sent from my iPhone"),
    ]


def keep(name, body, **kwargs):
    return Case("keep", name, mail(f"keep-{name}", body, **kwargs), body.strip())


def negatives():
    return [
        keep("sent-from-my-desk", "Sent from my desk, I can see the whole car park. Your car is not there.\n\nBob\n"),
        keep("sent-from-my-desk-last-line", "I can't print the slides today.\n\n"
                                            "Sent from my desk at home, where the printer is broken again.\n"),
        keep("sent-from-in-prose", "The parcel was sent from my office on Monday.\nIt should arrive tomorrow.\n"),
        keep("wrote-in-prose", "Ann wrote: the budget is fine.\nCan you check the travel costs?\n"),
        keep("on-date-wrote-in-prose", "On Monday the board wrote: \"no new hires this quarter\". We can still use "
                                       "contractors.\n"),
        keep("dash-dash-in-sentence", "The results -- as far as I can tell -- are fine.\n-- not all of them, though.\n\nBob\n"),
        keep("from-line-in-itinerary", "Here is the plan:\n\nFrom: Berlin, 08:15\nTo: Paris, 16:40\nSubject to delays.\n\n"
                                       "See you there.\n"),
        keep("shell-prompt", "Run this and send me the output:\n\n    $ make check\n    > ok\n\nThanks.\n"),
        keep("single-quote-line-in-prose", "As the sign says\n> mind the gap\nand it means it.\n"),
        keep("original-message-in-prose", "I lost the original message, could you send it again?\n"),
        keep("regards-mid-sentence", "Give my regards to your team, and thanks for the help.\n\nBob\n"),
        keep("forwarded-in-prose", "I forwarded the message to Carol yesterday.\n"),
        keep("list-with-dashes", "Two things:\n\n- the slides\n- the printed agenda\n\nBob\n"),
        keep("underscore-rule-in-prose", "Fill in your name here: ________________ and sign below.\n"),
        keep("schrieb-in-prose", "Anna schrieb gestern: die Rechnung ist bezahlt.\n",
             sender=("Jonas Weber", "jonas@example.de")),
        keep("a-ecrit-in-prose", "Claire a écrit : le dossier est complet. Merci à tous.\n",
             sender=("Julien Dubois", "julien@example.fr")),
        keep("von-meinem-in-prose", "Schöne Grüße aus Köln.\nVon meinem Balkon aus sehe ich den Dom.\n",
             sender=("Jonas Weber", "jonas@example.de")),
        keep("envoye-de-mon-in-prose", "Le colis est parti hier.\nEnvoyé de mon bureau, il arrivera demain.\n",
             sender=("Julien Dubois", "julien@example.fr")),
    ]


def cases():
    return interleaved() + signatures() + mobile_footers() + forwards() + empty() + negatives()
