#!/usr/bin/env python3
"""Drives a running Gmail emulator with Google's own Python client (google-api-python-client).

Usage: gmail_conformance.py BASE_URL   (e.g. http://127.0.0.1:8080)

The client is built from the discovery document in Fixtures/gmail with its root URL pointed at the
emulator, so every request is shaped, and every answer parsed, by code the project did not write.
Prints `ok NAME` or `FAIL NAME: reason` per check and exits 1 when any check failed.
"""

import base64
import json
import os
import re
import sys
import traceback

try:
    import google_auth_httplib2
    import httplib2
    from google.oauth2.credentials import Credentials
    from googleapiclient.discovery import build_from_document
    from googleapiclient.errors import HttpError
    from googleapiclient.http import MediaInMemoryUpload
except ImportError as missing:
    print(f"FAIL import: {missing}; run scripts/install-deps (pip install google-api-python-client google-auth)")
    sys.exit(2)

TOKEN = "emu-static-token"
DISCOVERY = os.path.join(os.path.dirname(__file__), "..", "..", "Fixtures", "gmail", "gmail-v1-discovery.json")
# A well-formed id no message has: Gmail answers 404 for it (a malformed id gets 400 instead).
UNKNOWN_ID = "ffffffffffffffff"


class CheckFailed(Exception):
    pass


def expect(condition, message):
    if not condition:
        raise CheckFailed(message)


def build_service(base_url):
    with open(DISCOVERY, encoding="utf-8") as file:
        document = json.load(file)
    root = base_url.rstrip("/") + "/"
    for key in ("rootUrl", "baseUrl", "mtlsRootUrl"):
        document[key] = root
    credentials = Credentials(token=TOKEN)
    http = google_auth_httplib2.AuthorizedHttp(credentials, http=httplib2.Http(timeout=120))
    return build_from_document(document, http=http)


def b64decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def header(message, name):
    for field in message.get("payload", {}).get("headers", []):
        if field["name"].lower() == name.lower():
            return field["value"]
    return None


class Context:
    """The service plus what earlier checks learned about the mailbox."""

    def __init__(self, service):
        self.service = service
        self.users = service.users()
        self.profile = None
        self.ids = []  # every listed message id, newest first
        self.thread_of = {}
        self.user_label = None


def check_get_profile(c):
    c.profile = c.users.getProfile(userId="me").execute()
    expect(c.profile.get("emailAddress"), f"no emailAddress in {c.profile}")
    expect(isinstance(c.profile.get("messagesTotal"), int), "messagesTotal is not an integer")
    expect(re.fullmatch(r"\d+", c.profile.get("historyId", "")), "historyId is not a decimal string")


def check_labels(c):
    labels = c.users.labels().list(userId="me").execute()["labels"]
    ids = {label["id"]: label for label in labels}
    for system in ("INBOX", "SENT", "UNREAD", "STARRED", "TRASH", "SPAM"):
        expect(system in ids and ids[system]["type"] == "system", f"system label {system} missing")
    inbox = c.users.labels().get(userId="me", id="INBOX").execute()
    expect(inbox["id"] == "INBOX" and isinstance(inbox.get("messagesTotal"), int), f"labels.get INBOX: {inbox}")
    user = [label for label in labels if label["type"] == "user"]
    expect(user, "no user label in the mailbox")
    got = c.users.labels().get(userId="me", id=user[0]["id"]).execute()
    expect(got["name"] == user[0]["name"], f"labels.get {user[0]['id']} named {got.get('name')}")
    # labels.get is the full Label resource: what labels.list says of it, plus the counters.
    for key, value in user[0].items():
        expect(got.get(key) == value, f"labels.get {user[0]['id']} has {key}={got.get(key)!r}, list says {value!r}")
    expect(isinstance(got.get("threadsUnread"), int), f"labels.get {user[0]['id']} has no counters: {got}")
    c.user_label = user[0]["id"]


def check_messages_list_paging(c):
    # list_next is the client's own paging: it copies nextPageToken into the next request.
    request, pages = c.users.messages().list(userId="me", maxResults=3), 0
    while request is not None:
        page = request.execute()
        batch = page.get("messages", [])
        expect(len(batch) <= 3, f"page of {len(batch)} for maxResults=3")
        for item in batch:
            c.thread_of[item["id"]] = item["threadId"]
        c.ids += [item["id"] for item in batch]
        pages += 1
        expect(pages < 100, "nextPageToken never ends")
        request = c.users.messages().list_next(request, page)
    expect(len(set(c.ids)) == len(c.ids), "a message was listed twice")
    expect(pages > 1, f"{len(c.ids)} messages fitted one page; the mailbox is too small to test paging")
    expect(len(c.ids) == c.profile["messagesTotal"], f"listed {len(c.ids)}, profile says {c.profile['messagesTotal']}")


def check_get_full(c):
    multipart = []
    for id in c.ids:
        message = c.users.messages().get(userId="me", id=id, format="full").execute()
        if message["payload"]["mimeType"].startswith("multipart/"):
            multipart.append(message)
        expect(message["id"] == id and message["threadId"] == c.thread_of[id], f"{id}: ids {message}")
        expect(re.fullmatch(r"\d+", message.get("internalDate", "")), f"{id}: internalDate not a decimal string")
        expect(isinstance(message.get("sizeEstimate"), int), f"{id}: no sizeEstimate")
        expect(header(message, "Subject") is not None, f"{id}: no Subject header in payload.headers")
    expect(multipart, "no multipart message in the mailbox")
    texts = list(leaves(multipart[0]["payload"], "text/plain"))
    expect(texts and texts[0]["body"].get("data"), "multipart message without an inline text/plain part")
    expect(b64decode(texts[0]["body"]["data"]).decode("utf-8").strip(), "text/plain part decodes to nothing")


def leaves(part, mime_type):
    if part.get("mimeType") == mime_type:
        yield part
    for child in part.get("parts", []):
        yield from leaves(child, mime_type)


def check_get_metadata(c):
    message = c.users.messages().get(
        userId="me", id=c.ids[0], format="metadata", metadataHeaders=["Subject", "From"]).execute()
    names = sorted({field["name"].lower() for field in message["payload"]["headers"]})
    expect(names == ["from", "subject"], f"metadataHeaders=Subject,From gave headers {names}")
    expect("parts" not in message["payload"] and "data" not in message["payload"].get("body", {}),
           "metadata format carries body content")


def check_get_minimal(c):
    message = c.users.messages().get(userId="me", id=c.ids[0], format="minimal").execute()
    expect("payload" not in message and "raw" not in message, f"minimal has {sorted(message)}")
    expect(message["id"] == c.ids[0] and "labelIds" in message, f"minimal lacks id/labelIds: {sorted(message)}")


def check_get_raw(c):
    for id in c.ids:
        message = c.users.messages().get(userId="me", id=id, format="raw").execute()
        expect("payload" not in message, f"{id}: raw format has a payload")
        raw = b64decode(message["raw"])
        first = raw.split(b"\n", 1)[0]
        expect(not first.startswith(b"From "), f"{id}: raw starts with an mbox separator {first[:60]!r}")
        expect(re.match(rb"^[!-9;-~]+:", first), f"{id}: raw's first line is not a header: {first[:60]!r}")
        subject = header(c.users.messages().get(userId="me", id=id, format="metadata",
                                                metadataHeaders=["Subject"]).execute(), "Subject")
        expect(subject.encode("utf-8") in raw or b"=?" in raw, f"{id}: raw lacks the Subject {subject!r}")


def check_fields_partial_response(c):
    message = c.users.messages().get(userId="me", id=c.ids[0], fields="id,labelIds").execute()
    expect(set(message) <= {"id", "labelIds"} and "id" in message, f"fields=id,labelIds gave {sorted(message)}")
    page = c.users.messages().list(userId="me", maxResults=2, fields="messages/id,nextPageToken").execute()
    expect(set(page) == {"messages", "nextPageToken"}, f"list with fields gave {sorted(page)}")
    expect(all(set(item) == {"id"} for item in page["messages"]), f"messages/id kept {page['messages']}")


def check_search(c):
    senders = {}
    for id in c.ids:
        message = c.users.messages().get(userId="me", id=id, format="metadata", metadataHeaders=["From"]).execute()
        address = re.search(r"[\w.+-]+@[\w.-]+", header(message, "From") or "").group(0).lower()
        senders.setdefault(address, set()).add(id)
    address, expected = min(senders.items(), key=lambda item: len(item[1]))
    found = c.users.messages().list(userId="me", q=f"from:{address}").execute().get("messages", [])
    expect({item["id"] for item in found} == expected, f"q=from:{address} found {len(found)}, expected {len(expected)}")
    labelled = {id for id in c.ids if {c.user_label, "UNREAD"} <= set(
        c.users.messages().get(userId="me", id=id, format="minimal").execute()["labelIds"])}
    found = c.users.messages().list(userId="me", labelIds=[c.user_label, "UNREAD"]).execute().get("messages", [])
    expect(labelled and {item["id"] for item in found} == labelled, f"labelIds={c.user_label},UNREAD: {found}")
    none = c.users.messages().list(userId="me", q="from:nobody-at-all@example.invalid").execute()
    expect(not none.get("messages") and none.get("resultSizeEstimate") == 0, f"empty search gave {none}")


def check_error_body_404(c):
    try:
        c.users.messages().get(userId="me", id=UNKNOWN_ID).execute()
    except HttpError as error:
        expect(error.resp.status == 404, f"status {error.resp.status}")
        body = json.loads(error.content)["error"]
        expect(body.get("code") == 404 and body.get("status") == "NOT_FOUND", f"error body {body}")
        expect(isinstance(body.get("message"), str) and body["message"], "error without message")
        detail = body.get("errors", [{}])[0]
        expect({"domain", "reason", "message"} <= set(detail), f"errors[0] is {detail}")
        expect(detail["reason"] == "notFound", f"reason {detail['reason']}")
        expect(error.reason == body["message"], f"client's reason {error.reason!r} != message")
        return
    raise CheckFailed("no HttpError for an unknown id")


def check_threads_get(c):
    sizes = {}
    for thread in c.thread_of.values():
        sizes[thread] = sizes.get(thread, 0) + 1
    thread_id, size = max(sizes.items(), key=lambda item: item[1])
    expect(size > 1, "no thread with more than one message in the mailbox")
    thread = c.users.threads().get(userId="me", id=thread_id, format="metadata", metadataHeaders=["Subject"]).execute()
    expect(thread["id"] == thread_id and len(thread["messages"]) == size, f"thread has {len(thread['messages'])}")
    expect(all(m["threadId"] == thread_id for m in thread["messages"]), "a member has another threadId")
    dates = [int(m["internalDate"]) for m in thread["messages"]]
    expect(dates == sorted(dates), "thread messages are not oldest first")


def check_send_as_list(c):
    send_as = c.users.settings().sendAs().list(userId="me").execute()["sendAs"]
    primary = [entry for entry in send_as if entry.get("isPrimary")]
    expect(len(primary) == 1 and primary[0]["sendAsEmail"] == c.profile["emailAddress"], f"sendAs {send_as}")


def check_modify_and_history(c):
    start = c.users.getProfile(userId="me").execute()["historyId"]
    labels_of = {id: c.users.messages().get(userId="me", id=id, format="minimal").execute()["labelIds"] for id in c.ids}
    unread = [id for id in c.ids if "UNREAD" in labels_of[id] and "STARRED" not in labels_of[id]]
    expect(unread, "no unread, unstarred message to modify")
    target, others = unread[0], [id for id in c.ids if id != unread[0]][:2]
    changed = c.users.messages().modify(
        userId="me", id=target, body={"addLabelIds": ["STARRED"], "removeLabelIds": ["UNREAD"]}).execute()
    expect("STARRED" in changed["labelIds"] and "UNREAD" not in changed["labelIds"], f"modify gave {changed}")
    c.users.messages().batchModify(userId="me", body={"ids": others, "addLabelIds": [c.user_label]}).execute()
    for id in others:
        labels = c.users.messages().get(userId="me", id=id, format="minimal").execute()["labelIds"]
        expect(c.user_label in labels, f"batchModify did not label {id}: {labels}")
    history = c.users.history().list(
        userId="me", startHistoryId=start, historyTypes=["labelAdded"], labelId="STARRED").execute()
    records = history.get("history", [])
    for record in records:
        expect(set(record) <= {"id", "messages", "labelsAdded"}, f"filtered record has {sorted(record)}")
        for added in record["labelsAdded"]:
            expect("STARRED" in added["message"]["labelIds"], f"labelId=STARRED let through {added}")
    added = [a for record in records for a in record["labelsAdded"]]
    expect(any(a["message"]["id"] == target and a["labelIds"] == ["STARRED"] for a in added), "STARRED add missing")
    everything = c.users.history().list(userId="me", startHistoryId=start).execute().get("history", [])
    removed = [r for record in everything for r in record.get("labelsRemoved", [])]
    expect(any(r["message"]["id"] == target and "UNREAD" in r["labelIds"] for r in removed), "UNREAD removal missing")
    expect(int(history["historyId"]) > int(start), "historyId did not advance")


def check_batch_http_request(c):
    answers = {}

    def collect(request_id, response, exception):
        answers[request_id] = (response, exception)

    batch = c.service.new_batch_http_request(callback=collect)
    wanted = c.ids[:3]
    for index, id in enumerate(wanted):
        batch.add(c.users.messages().get(userId="me", id=id, format="minimal"), request_id=str(index))
    batch.add(c.users.messages().get(userId="me", id=UNKNOWN_ID), request_id="bad")
    batch.execute()
    expect(sorted(answers) == ["0", "1", "2", "bad"], f"batch answered {sorted(answers)}")
    for index, id in enumerate(wanted):
        response, exception = answers[str(index)]
        expect(exception is None and response["id"] == id, f"part {index}: {exception or response}")
    response, exception = answers["bad"]
    expect(isinstance(exception, HttpError) and exception.resp.status == 404, f"bad part: {exception or response}")
    expect(json.loads(exception.content)["error"]["status"] == "NOT_FOUND", "bad part's error body")


def check_send_in_thread(c):
    thread_id = max(set(c.thread_of.values()), key=list(c.thread_of.values()).count)
    last = c.users.threads().get(userId="me", id=thread_id, format="metadata",
                                 metadataHeaders=["Subject", "Message-ID"]).execute()["messages"][-1]
    reference, subject = header(last, "Message-ID"), header(last, "Subject")
    subject = subject if subject.lower().startswith("re:") else "Re: " + subject
    raw = (f"From: {c.profile['emailAddress']}\r\nTo: someone@example.org\r\n"
           f"Subject: {subject}\r\nIn-Reply-To: {reference}\r\nReferences: {reference}\r\n"
           "Content-Type: text/plain; charset=utf-8\r\n\r\nSent by the conformance check.\r\n")
    body = {"raw": base64.urlsafe_b64encode(raw.encode()).decode(), "threadId": thread_id}
    sent = c.users.messages().send(userId="me", body=body).execute()
    expect(sent.get("id") and sent.get("threadId") == thread_id, f"send gave {sent}")
    expect("SENT" in sent.get("labelIds", []), f"send's labelIds {sent.get('labelIds')}")
    members = c.users.threads().get(userId="me", id=thread_id, format="minimal").execute()["messages"]
    expect(sent["id"] in [m["id"] for m in members], "sent message is not in its thread")
    c.sent_id = sent["id"]


def check_send_media_upload(c):
    raw = (f"From: {c.profile['emailAddress']}\r\nTo: someone@example.org\r\nSubject: uploaded\r\n"
           "Content-Type: text/plain; charset=utf-8\r\n\r\nSent through the upload path.\r\n")
    media = MediaInMemoryUpload(raw.encode(), mimetype="message/rfc822")
    sent = c.users.messages().send(userId="me", body={}, media_body=media).execute()
    expect(sent.get("id") and "SENT" in sent.get("labelIds", []), f"upload send gave {sent}")
    stored = b64decode(c.users.messages().get(userId="me", id=sent["id"], format="raw").execute()["raw"])
    expect(b"Sent through the upload path." in stored, "the uploaded body was not stored")


# Checks for endpoints the emulator does not serve yet (threads.list/modify/trash/untrash).

def check_threads_list(c):
    token, seen = None, []
    while True:
        page = c.users.threads().list(userId="me", maxResults=2, pageToken=token).execute()
        expect(len(page.get("threads", [])) <= 2, "page larger than maxResults=2")
        for thread in page.get("threads", []):
            expect({"id", "snippet", "historyId"} <= set(thread), f"thread entry {thread}")
            seen.append(thread["id"])
        token = page.get("nextPageToken")
        if not token:
            break
    expect(len(seen) == len(set(seen)), "a thread was listed twice")
    total = c.users.getProfile(userId="me").execute()["threadsTotal"]
    expect(len(seen) == total, f"listed {len(seen)} threads, profile says {total}")


def largest_thread(c):
    return max(set(c.thread_of.values()), key=list(c.thread_of.values()).count)


def check_threads_modify(c):
    thread_id = largest_thread(c)
    thread = c.users.threads().modify(userId="me", id=thread_id, body={"addLabelIds": ["IMPORTANT"]}).execute()
    expect(thread["id"] == thread_id, f"modify answered {thread}")
    members = c.users.threads().get(userId="me", id=thread_id, format="minimal").execute()["messages"]
    expect(all("IMPORTANT" in m["labelIds"] for m in members), "a member lacks the added label")


def check_threads_trash_untrash(c):
    thread_id = largest_thread(c)
    c.users.threads().trash(userId="me", id=thread_id).execute()
    members = c.users.threads().get(userId="me", id=thread_id, format="minimal").execute()["messages"]
    expect(all("TRASH" in m["labelIds"] for m in members), "threads.trash left a member out of TRASH")
    c.users.threads().untrash(userId="me", id=thread_id).execute()
    members = c.users.threads().get(userId="me", id=thread_id, format="minimal").execute()["messages"]
    expect(all("TRASH" not in m["labelIds"] for m in members), "threads.untrash left a member in TRASH")


CHECKS = [
    check_get_profile, check_labels, check_messages_list_paging, check_get_full, check_get_metadata,
    check_get_minimal, check_get_raw, check_fields_partial_response, check_search, check_error_body_404,
    check_threads_get, check_send_as_list, check_modify_and_history, check_batch_http_request,
    check_send_in_thread, check_send_media_upload,
    check_threads_list,
    check_threads_modify,
    check_threads_trash_untrash,
]


def run(check, context):
    name = check.__name__.removeprefix("check_")
    try:
        check(context)
        return name, None
    except CheckFailed as failure:
        return name, str(failure)
    except HttpError as error:
        return name, f"HTTP {error.resp.status} from {error.uri}: {error.reason}"
    except Exception as error:  # noqa: BLE001 — any crash is a failed check, with where it happened
        frame = traceback.extract_tb(error.__traceback__)[-1]
        return name, f"{type(error).__name__}: {error} (line {frame.lineno})"


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 64
    context = Context(build_service(sys.argv[1]))
    failed = 0
    for check in CHECKS:
        name, problem = run(check, context)
        print(f"ok {name}" if problem is None else f"FAIL {name}: {problem}", flush=True)
        failed += problem is not None
        if problem and name in ("get_profile", "messages_list_paging"):
            print("FAIL stopped: later checks need this one's results")
            return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
