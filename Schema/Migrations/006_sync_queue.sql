-- 006: the Gmail ids a full (initial or recovery) sync still has to download.
-- A sync lists every id once, stores the ones it lacks here, and deletes each row in the SAME transaction
-- that stores its message (or records it gone or failed). Killed at any moment, the next run continues
-- from these rows without listing or downloading anything twice. `position` keeps Gmail's order (newest
-- first), so the newest mail appears first.

CREATE TABLE sync_queue (
    account_id INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
    gmail_id   TEXT    NOT NULL,
    position   INTEGER NOT NULL,
    PRIMARY KEY (account_id, gmail_id)
) WITHOUT ROWID;

CREATE INDEX sync_queue_by_position ON sync_queue (account_id, position);
