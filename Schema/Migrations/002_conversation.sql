-- 002: conversations, keyed by the participant hash, with their rollup columns.
-- The rollup columns (last_message_at_ms .. is_newsletter) are derived data: RollupUpdater recomputes
-- them with SQL aggregates, only for the conversations a sync run touched, inside that run's transaction.

CREATE TABLE conversation (
    id                 INTEGER PRIMARY KEY,
    account_id         INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
    participant_hash   TEXT    NOT NULL CHECK (length(participant_hash) = 64),
    title              TEXT    NOT NULL DEFAULT '',
    last_message_at_ms INTEGER NOT NULL DEFAULT 0,
    snippet            TEXT    NOT NULL DEFAULT '',
    message_count      INTEGER NOT NULL DEFAULT 0 CHECK (message_count >= 0),
    unread_count       INTEGER NOT NULL DEFAULT 0 CHECK (unread_count >= 0),
    has_inbox          INTEGER NOT NULL DEFAULT 0 CHECK (has_inbox = 0 OR has_inbox = 1),
    archived_at_ms     INTEGER,
    is_newsletter      INTEGER NOT NULL DEFAULT 0 CHECK (is_newsletter = 0 OR is_newsletter = 1),
    created_at_ms      INTEGER NOT NULL,
    -- The UNIQUE constraint is what makes find-or-create safe under concurrent writers.
    UNIQUE (account_id, participant_hash)
);

-- The default conversation list: non-archived, newest first.
CREATE INDEX conversation_active_by_recency
    ON conversation (account_id, last_message_at_ms DESC, id DESC)
    WHERE archived_at_ms IS NULL;

-- --all and --archived lists.
CREATE INDEX conversation_by_recency
    ON conversation (account_id, last_message_at_ms DESC, id DESC);

-- The people a conversation is with: everyone on its messages except the account's aliases.
-- address keeps the spelling first seen. display_name is a rollup: the rollup pass sets it to the name
-- on the NEWEST message that carries one, so the order messages are stored in cannot matter.
CREATE TABLE conversation_participant (
    conversation_id    INTEGER NOT NULL REFERENCES conversation(id) ON DELETE CASCADE,
    address_normalized TEXT    NOT NULL,
    address            TEXT    NOT NULL,
    display_name       TEXT,
    PRIMARY KEY (conversation_id, address_normalized)
) WITHOUT ROWID;

-- Person resolution (`show <person>`) looks participants up by address and name.
CREATE INDEX conversation_participant_by_address
    ON conversation_participant (address_normalized);
