-- 012: the outbox. A reply or new message is stored before any network call, sent once through the
-- pending-action queue (kind 'send'), and becomes the server's message when Gmail accepts it.

-- The RFC 5322 Message-ID and References of each message, which a reply threads on. NULL for messages
-- stored before this migration: a reply to one of those reads them from Gmail when it is sent.
ALTER TABLE message ADD COLUMN rfc822_message_id TEXT;
-- The ids of References, space-separated, each in angle brackets.
ALTER TABLE message ADD COLUMN references_header TEXT;

-- The queue gains the kind 'send' (SQLite cannot alter a CHECK constraint, so the table is rebuilt;
-- ids are kept, and AUTOINCREMENT still never reuses one).
CREATE TABLE pending_action_012 (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id         INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
    kind               TEXT    NOT NULL CHECK (kind IN
                           ('archive', 'unarchive', 'read', 'unread', 'star', 'unstar', 'trash', 'untrash', 'send')),
    target             TEXT    NOT NULL DEFAULT '',
    -- JSON arrays of Gmail ids. Label actions are idempotent: absolute add/remove sets, so a resend is safe.
    -- A send's only target is its outbox message's local id.
    target_message_ids TEXT    NOT NULL CHECK (json_valid(target_message_ids)),
    sent_message_ids   TEXT    NOT NULL DEFAULT '[]' CHECK (json_valid(sent_message_ids)),
    add_labels         TEXT    NOT NULL DEFAULT '[]' CHECK (json_valid(add_labels)),
    remove_labels      TEXT    NOT NULL DEFAULT '[]' CHECK (json_valid(remove_labels)),
    status             TEXT    NOT NULL DEFAULT 'pending' CHECK (status IN
                           ('pending', 'processing', 'failed', 'completed', 'abandoned')),
    attempts           INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    next_attempt_at_ms INTEGER NOT NULL,
    last_error         TEXT,
    created_at_ms      INTEGER NOT NULL,
    updated_at_ms      INTEGER NOT NULL
);

INSERT INTO pending_action_012 (id, account_id, kind, target, target_message_ids, sent_message_ids, add_labels,
    remove_labels, status, attempts, next_attempt_at_ms, last_error, created_at_ms, updated_at_ms)
SELECT id, account_id, kind, target, target_message_ids, sent_message_ids, add_labels,
    remove_labels, status, attempts, next_attempt_at_ms, last_error, created_at_ms, updated_at_ms
FROM pending_action;

DROP TABLE pending_action;
ALTER TABLE pending_action_012 RENAME TO pending_action;

CREATE INDEX pending_action_due
    ON pending_action (account_id, status, next_attempt_at_ms);

-- One row per queued message. Until Gmail accepts it, the message is stored under local_gmail_id
-- ('out-' + action id) so it shows as the user's bubble at once; when Gmail accepts it, that row takes
-- the server's id, and sync's copy lands on it: the message exists exactly once.
CREATE TABLE outbox (
    action_id           INTEGER PRIMARY KEY REFERENCES pending_action(id) ON DELETE CASCADE,
    account_id          INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
    local_gmail_id      TEXT    NOT NULL,
    -- What the user wrote and to whom; the RFC 5322 bytes are made from these once, before the first
    -- attempt, and kept in `raw`, so every attempt sends the same bytes.
    body                TEXT    NOT NULL,
    subject             TEXT    NOT NULL,
    from_address        TEXT    NOT NULL,
    from_name           TEXT,
    recipients          TEXT    NOT NULL CHECK (json_valid(recipients)),
    -- The message answered (its Gmail id), NULL for a new message; its thread is joined.
    parent_gmail_id     TEXT,
    thread_id           TEXT,
    quote               INTEGER NOT NULL DEFAULT 0 CHECK (quote = 0 OR quote = 1),
    raw                 BLOB,
    -- The Date header written into raw, which identifies the message on the server when an attempt's
    -- outcome is unknown (Gmail may replace the Message-ID).
    date_header         TEXT,
    -- Gmail's history id before the attempt whose outcome is unknown: the check reads history from there.
    check_from_history  TEXT,
    -- 1 from just before a request is written until its outcome is known: a crash or a lost answer
    -- leaves it set, and the next attempt first asks Gmail whether the message went out.
    outcome_unknown     INTEGER NOT NULL DEFAULT 0 CHECK (outcome_unknown = 0 OR outcome_unknown = 1),
    sent_gmail_id       TEXT,
    sent_thread_id      TEXT,
    created_at_ms       INTEGER NOT NULL
);

CREATE UNIQUE INDEX outbox_by_local_id ON outbox (account_id, local_gmail_id);
