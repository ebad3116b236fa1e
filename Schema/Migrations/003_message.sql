-- 003: messages with their labels, participants and attachments.

CREATE TABLE message (
    id                  INTEGER PRIMARY KEY,               -- also the FTS rowid (004)
    account_id          INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
    gmail_id            TEXT    NOT NULL,
    thread_id           TEXT    NOT NULL,
    conversation_id     INTEGER NOT NULL REFERENCES conversation(id),
    internal_date_ms    INTEGER NOT NULL,
    from_address        TEXT    NOT NULL,                  -- original spelling, for display
    from_name           TEXT,
    subject             TEXT    NOT NULL DEFAULT '',
    snippet             TEXT    NOT NULL DEFAULT '',       -- Gmail's own snippet
    body_text           TEXT    NOT NULL DEFAULT '',       -- the bubble text
    original_text       TEXT,                              -- the text before quotes/signatures were cut (--full)
    body_html_sanitized TEXT,
    quoted_text_removed INTEGER NOT NULL DEFAULT 0 CHECK (quoted_text_removed = 0 OR quoted_text_removed = 1),
    is_newsletter       INTEGER NOT NULL DEFAULT 0 CHECK (is_newsletter = 0 OR is_newsletter = 1),
    newsletter_reason   TEXT,
    is_from_me          INTEGER NOT NULL DEFAULT 0 CHECK (is_from_me = 0 OR is_from_me = 1),
    size_estimate       INTEGER NOT NULL DEFAULT 0,
    gmail_history_id    TEXT,
    UNIQUE (account_id, gmail_id)
);

-- Transcript paging: the newest N messages of a conversation, and the rollups' aggregates.
CREATE INDEX message_by_conversation_date
    ON message (conversation_id, internal_date_ms, id);

CREATE TABLE message_label (
    message_id INTEGER NOT NULL REFERENCES message(id) ON DELETE CASCADE,
    label_id   INTEGER NOT NULL REFERENCES label(id) ON DELETE CASCADE,
    PRIMARY KEY (message_id, label_id)
) WITHOUT ROWID;

CREATE INDEX message_label_by_label ON message_label (label_id);

CREATE TABLE message_participant (
    message_id         INTEGER NOT NULL REFERENCES message(id) ON DELETE CASCADE,
    role               TEXT    NOT NULL CHECK (role = 'from' OR role = 'to' OR role = 'cc' OR role = 'bcc'),
    address_normalized TEXT    NOT NULL,
    address            TEXT    NOT NULL,
    name               TEXT,
    PRIMARY KEY (message_id, role, address_normalized)
) WITHOUT ROWID;

CREATE TABLE attachment (
    id                  INTEGER PRIMARY KEY,
    message_id          INTEGER NOT NULL REFERENCES message(id) ON DELETE CASCADE,
    part_id             TEXT    NOT NULL,
    filename            TEXT    NOT NULL DEFAULT '',
    mime_type           TEXT    NOT NULL DEFAULT 'application/octet-stream',
    size                INTEGER NOT NULL DEFAULT 0 CHECK (size >= 0),
    content_id          TEXT,
    is_inline           INTEGER NOT NULL DEFAULT 0 CHECK (is_inline = 0 OR is_inline = 1),
    gmail_attachment_id TEXT,
    UNIQUE (message_id, part_id)
);
