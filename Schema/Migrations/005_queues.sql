-- 005: the local-first pending-action queue and the record of messages that keep failing to sync.

CREATE TABLE pending_action (
    id                 INTEGER PRIMARY KEY,
    account_id         INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
    kind               TEXT    NOT NULL CHECK (kind IN
                           ('archive', 'unarchive', 'read', 'unread', 'star', 'unstar', 'trash', 'untrash')),
    -- JSON arrays of Gmail ids. Actions are idempotent: absolute add/remove sets, so a resend is safe.
    target_message_ids TEXT    NOT NULL CHECK (json_valid(target_message_ids)),
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

-- The sender picks due actions in order.
CREATE INDEX pending_action_due
    ON pending_action (account_id, status, next_attempt_at_ms);

CREATE TABLE abandoned_message (
    account_id         INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
    gmail_id           TEXT    NOT NULL,
    attempts           INTEGER NOT NULL DEFAULT 1 CHECK (attempts >= 1),
    last_error         TEXT    NOT NULL,
    first_failed_at_ms INTEGER NOT NULL,
    last_failed_at_ms  INTEGER NOT NULL,
    PRIMARY KEY (account_id, gmail_id)
) WITHOUT ROWID;
