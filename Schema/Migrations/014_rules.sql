-- 014: the user's rules (allow, deny, mute), the screener switch, and what each message's rules decided.

-- A rule matches incoming messages on one field. `pattern` is stored normalized for its field: an
-- identity key for `sender`, a lowercased domain without `@` for `domain`, and lowercased words with
-- single spaces for `subject` and `text`. So one rule cannot be stored twice under two spellings.
CREATE TABLE rule (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused: scripts name rules by id
    account_id    INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
    action        TEXT    NOT NULL CHECK (action IN ('allow', 'deny', 'mute')),
    field         TEXT    NOT NULL CHECK (field IN ('sender', 'domain', 'subject', 'text')),
    pattern       TEXT    NOT NULL CHECK (pattern <> ''),
    -- Deny rules only: the messages they match are archived on Gmail too, through the pending queue.
    archives      INTEGER NOT NULL DEFAULT 0 CHECK (archives = 0 OR (archives = 1 AND action = 'deny')),
    created_at_ms INTEGER NOT NULL,
    UNIQUE (account_id, action, field, pattern)
);

-- The rule that decides each incoming message, chosen when the message is stored and again for the
-- messages a new or removed rule can change; NULL when no rule matches (and for the account's own
-- mail, which rules never judge). `rule_action` repeats the rule's action so rollups read one row.
ALTER TABLE message ADD COLUMN rule_id INTEGER REFERENCES rule(id) ON DELETE SET NULL;
ALTER TABLE message ADD COLUMN rule_action TEXT CHECK (rule_action IS NULL OR rule_action = 'allow'
    OR rule_action = 'deny' OR rule_action = 'mute');

-- Whether a deny rule with `archives` has already acted on the message: a rule archives a message once,
-- when it arrives or when the rule is added, and never again (not when a full sync stores it anew after
-- the user moved it back to the inbox).
ALTER TABLE message ADD COLUMN rule_archived INTEGER NOT NULL DEFAULT 0
    CHECK (rule_archived = 0 OR rule_archived = 1);

-- The rollups read `rule_action` beside the flags already in this index, so the aggregates keep
-- reading the index alone (see 009).
DROP INDEX message_by_conversation_date;
CREATE INDEX message_by_conversation_date
    ON message (conversation_id, internal_date_ms, id, is_from_me, is_newsletter, rule_action);

-- Removing a rule re-decides exactly the messages it decided.
CREATE INDEX message_by_rule ON message (rule_id) WHERE rule_id IS NOT NULL;

-- Rollups: a conversation is filtered (hidden from the main list) when it has incoming mail and every
-- visible incoming message is denied; it is allowed when some visible message is decided by an allow
-- rule, which lets it past the screener.
ALTER TABLE conversation ADD COLUMN is_filtered INTEGER NOT NULL DEFAULT 0
    CHECK (is_filtered = 0 OR is_filtered = 1);
ALTER TABLE conversation ADD COLUMN is_allowed INTEGER NOT NULL DEFAULT 0
    CHECK (is_allowed = 0 OR is_allowed = 1);

-- Everyone the account has written to (a recipient of one of its own messages). The screener lets a
-- conversation through when one of its people is here, without a search through every sent message.
CREATE TABLE correspondent (
    account_id         INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
    address_normalized TEXT    NOT NULL,
    PRIMARY KEY (account_id, address_normalized)
) WITHOUT ROWID;

INSERT OR IGNORE INTO correspondent (account_id, address_normalized)
SELECT m.account_id, mp.address_normalized
FROM message m JOIN message_participant mp ON mp.message_id = m.id
WHERE m.is_from_me = 1 AND mp.role <> 'from';

-- The screener is off until the user turns it on.
ALTER TABLE account ADD COLUMN screener_enabled INTEGER NOT NULL DEFAULT 0
    CHECK (screener_enabled = 0 OR screener_enabled = 1);
