-- 001: accounts, their sendAs aliases and their Gmail labels.
-- Every time in this schema is integer milliseconds since the Unix epoch (UTC), named *_ms.
-- CHECKs on columns written per message use `a = x OR a = y`, never `a IN (x, y)`: SQLite 3.40 builds
-- an ephemeral b-tree for an IN list on every row it checks, which made bulk inserts measurably slower.
-- Gmail history ids are uint64 decimal strings on the wire; they are stored as TEXT so that no
-- value can overflow SQLite's signed 64-bit integers, and they are only ever compared in Swift.

CREATE TABLE account (
    id                    INTEGER PRIMARY KEY,
    email                 TEXT    NOT NULL,                 -- as Gmail spells it, for display
    email_normalized      TEXT    NOT NULL UNIQUE,          -- identity key (see EmailNormalizer)
    history_id            TEXT    CHECK (history_id IS NULL OR (history_id <> '' AND history_id NOT GLOB '*[^0-9]*')),
    last_sync_at_ms       INTEGER,
    last_reconciled_at_ms INTEGER,
    full_sync_cursor      TEXT,                             -- JSON state of a resumable initial sync
    created_at_ms         INTEGER NOT NULL
);

-- sendAs addresses. ALL of them are loaded before any participant hash is computed, so a message
-- sent from an alias never creates a conversation that contains yourself.
CREATE TABLE account_alias (
    account_id         INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
    address_normalized TEXT    NOT NULL,
    address            TEXT    NOT NULL,
    display_name       TEXT,
    is_primary         INTEGER NOT NULL DEFAULT 0 CHECK (is_primary = 0 OR is_primary = 1),
    PRIMARY KEY (account_id, address_normalized)
) WITHOUT ROWID;

CREATE TABLE label (
    id         INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
    gmail_id   TEXT    NOT NULL,                            -- 'INBOX', 'UNREAD', 'Label_12', ...
    name       TEXT    NOT NULL,
    type       TEXT    NOT NULL CHECK (type IN ('system', 'user')),
    UNIQUE (account_id, gmail_id)
);
