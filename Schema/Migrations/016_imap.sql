-- 016: IMAP accounts. A message keeps its one local identity (message.id, and message.gmail_id as the
-- provider's key); where an IMAP server holds it is a separate locator, so one message may sit in several
-- folders and a folder's UIDs may be renumbered without touching the message.

-- Where the account's mail comes from. Every account stored before this migration came from Gmail's API.
ALTER TABLE account ADD COLUMN provider TEXT NOT NULL DEFAULT 'gmail' CHECK (provider = 'gmail' OR provider = 'imap');

-- How to reach an IMAP account. The password is never here: it is in the credentials file (0600) or
-- produced by password_command each time a connection opens. SMTP is stored for sending.
CREATE TABLE imap_account (
    account_id       INTEGER PRIMARY KEY REFERENCES account(id) ON DELETE CASCADE,
    host             TEXT    NOT NULL,
    port             INTEGER NOT NULL CHECK (port BETWEEN 1 AND 65535),
    security         TEXT    NOT NULL CHECK (security IN ('tls', 'starttls', 'none')),
    login            TEXT    NOT NULL,
    password_command TEXT,
    token_command    TEXT,
    smtp_host        TEXT    NOT NULL,
    smtp_port        INTEGER NOT NULL CHECK (smtp_port BETWEEN 1 AND 65535),
    smtp_security    TEXT    NOT NULL CHECK (smtp_security IN ('tls', 'starttls', 'none'))
);

-- The folders sync reads, with each one's sync state. The state advances only in the transaction that
-- stores what it accounts for. label_id is the label the folder's messages carry (NULL: none, as for
-- an archive folder).
CREATE TABLE imap_folder (
    id             INTEGER PRIMARY KEY,
    account_id     INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
    name           TEXT    NOT NULL,                    -- decoded from modified UTF-7
    label_id       TEXT,
    uid_validity   INTEGER CHECK (uid_validity IS NULL OR uid_validity > 0),
    uid_next       INTEGER NOT NULL DEFAULT 1 CHECK (uid_next > 0),
    highest_modseq INTEGER,                             -- NULL without CONDSTORE, or before the first sync
    UNIQUE (account_id, name)
);

-- One copy of a message in a folder. The key is folder + UID under the folder's current UIDVALIDITY:
-- a UIDVALIDITY change drops the folder's rows, never the messages.
CREATE TABLE imap_location (
    folder_id     INTEGER NOT NULL REFERENCES imap_folder(id) ON DELETE CASCADE,
    uid           INTEGER NOT NULL CHECK (uid > 0),
    message_id    INTEGER NOT NULL REFERENCES message(id) ON DELETE CASCADE,
    seen          INTEGER NOT NULL CHECK (seen = 0 OR seen = 1),
    flagged       INTEGER NOT NULL CHECK (flagged = 0 OR flagged = 1),
    gmail_labels  TEXT    CHECK (gmail_labels IS NULL OR json_valid(gmail_labels)), -- X-GM-LABELS as label ids
    PRIMARY KEY (folder_id, uid)
) WITHOUT ROWID;

CREATE INDEX imap_location_by_message ON imap_location (message_id);

-- SHA-256 of an IMAP message's raw bytes: two folders' copies with the same digest are one message.
ALTER TABLE message ADD COLUMN content_digest TEXT;
-- The server's INTERNALDATE, which with the Message-ID and size re-finds a message after UIDVALIDITY changes.
ALTER TABLE message ADD COLUMN imap_internal_date_ms INTEGER;

CREATE INDEX message_by_digest ON message (account_id, content_digest) WHERE content_digest IS NOT NULL;
CREATE INDEX message_by_rfc822_id ON message (account_id, rfc822_message_id) WHERE content_digest IS NOT NULL;
