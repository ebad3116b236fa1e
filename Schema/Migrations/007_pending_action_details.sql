-- 007: what the pending-action queue needs beyond 005.
--
-- The table is rebuilt (SQLite cannot alter a primary key) to add:
-- - AUTOINCREMENT: an action id is never reused, so `chatmail pending retry 3` can never reach a
--   different action than the "#3" a user saw, even after #3 was dismissed or coalesced away;
-- - target: what the user acted on, for `chatmail pending` ("alice@example.com", "message 18c2…");
-- - sent_message_ids: the target ids Gmail has already accepted, so a resumed or retried action does not
--   send them again (a resend would be harmless, actions being absolute, but it costs quota) and so an
--   opposite action can no longer cancel them locally.
CREATE TABLE pending_action_007 (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id         INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
    kind               TEXT    NOT NULL CHECK (kind IN
                           ('archive', 'unarchive', 'read', 'unread', 'star', 'unstar', 'trash', 'untrash')),
    target             TEXT    NOT NULL DEFAULT '',
    -- JSON arrays of Gmail ids. Actions are idempotent: absolute add/remove sets, so a resend is safe.
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

INSERT INTO pending_action_007 (id, account_id, kind, target_message_ids, add_labels, remove_labels, status, attempts,
    next_attempt_at_ms, last_error, created_at_ms, updated_at_ms)
SELECT id, account_id, kind, target_message_ids, add_labels, remove_labels, status, attempts,
    next_attempt_at_ms, last_error, created_at_ms, updated_at_ms
FROM pending_action;

DROP TABLE pending_action;
ALTER TABLE pending_action_007 RENAME TO pending_action;

-- The sender picks due actions in order.
CREATE INDEX pending_action_due
    ON pending_action (account_id, status, next_attempt_at_ms);

-- Messages whose labels must be re-read from Gmail: the targets of completed, abandoned, dismissed and
-- cancelled actions. While an action protected them, sync skipped remote label changes; re-reading is
-- what makes the local copy match Gmail again. Rows survive crashes and network failures.
CREATE TABLE label_recheck (
    account_id INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
    gmail_id   TEXT    NOT NULL,
    PRIMARY KEY (account_id, gmail_id)
) WITHOUT ROWID;
