-- 007: what the pending-action queue needs beyond 005.
--
-- target: what the user acted on, for `chatmail pending` ("alice@example.com", "message 18c2…").
-- sent_message_ids: the target ids Gmail has already accepted, so a resumed or retried action does not
--   send them again (a resend would be harmless, actions being absolute, but it costs quota) and so an
--   opposite action can no longer cancel them locally.
ALTER TABLE pending_action ADD COLUMN target TEXT NOT NULL DEFAULT '';
ALTER TABLE pending_action ADD COLUMN sent_message_ids TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(sent_message_ids));

-- Messages whose labels must be re-read from Gmail: the targets of completed, abandoned, dismissed and
-- cancelled actions. While an action protected them, sync skipped remote label changes; re-reading is
-- what makes the local copy match Gmail again. Rows survive crashes and network failures.
CREATE TABLE label_recheck (
    account_id INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
    gmail_id   TEXT    NOT NULL,
    PRIMARY KEY (account_id, gmail_id)
) WITHOUT ROWID;
