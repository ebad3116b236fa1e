-- 010: mailing lists. Each list is ONE conversation, keyed by a hash of its list id.
--
-- Messages from before this migration carry no list data: their raw headers are not stored, so they stay
-- in their participant-set conversations until they are stored again with their list headers.

-- The list headers of each message. list_id is the RFC 2919 identifier (lowercased, without brackets);
-- list_post_address the `mailto:` address of List-Post (RFC 2369); list_read_only is `List-Post: NO`.
-- reply_to and mail_followup_to are JSON arrays of {"address", "name"} objects, NULL without the header:
-- replying needs them, nothing else reads them, so they are not split into rows.
ALTER TABLE message ADD COLUMN list_id TEXT;
ALTER TABLE message ADD COLUMN list_name TEXT;
ALTER TABLE message ADD COLUMN list_post_address TEXT;
ALTER TABLE message ADD COLUMN list_read_only INTEGER NOT NULL DEFAULT 0
    CHECK (list_read_only = 0 OR list_read_only = 1);
ALTER TABLE message ADD COLUMN reply_to TEXT CHECK (reply_to IS NULL OR json_valid(reply_to));
ALTER TABLE message ADD COLUMN mail_followup_to TEXT CHECK (mail_followup_to IS NULL OR json_valid(mail_followup_to));

-- The list a conversation is, NULL for a participant-set conversation. Its participant_hash is then the
-- SHA-256 of "l|" + list id, which can never equal a participant set's ("p|" + addresses).
ALTER TABLE conversation ADD COLUMN list_id TEXT;

-- The lists seen on the account's messages. The name comes from the newest message (by internal date)
-- that has one, the posting address and read-only flag from the newest one with a List-Post (name_seen_ms
-- and post_seen_ms are those dates), first/last seen are the oldest and newest message dates: the order
-- messages are stored in cannot change the row.
CREATE TABLE mailing_list (
    account_id                 INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
    list_id                    TEXT    NOT NULL CHECK (list_id <> ''),
    name                       TEXT,
    name_seen_ms               INTEGER,
    post_address               TEXT,
    post_address_normalized    TEXT,
    is_read_only               INTEGER NOT NULL DEFAULT 0 CHECK (is_read_only = 0 OR is_read_only = 1),
    post_seen_ms               INTEGER,
    first_seen_ms              INTEGER NOT NULL,
    last_seen_ms               INTEGER NOT NULL,
    PRIMARY KEY (account_id, list_id)
) WITHOUT ROWID;

-- Every posting address carried by a list's stored messages: the addresses that route the account's own
-- posts (which carry no List-Id) into the list. Any message carrying one teaches it, so routing cannot
-- depend on which message arrived last; it is forgotten when its last carrier is deleted.
CREATE TABLE mailing_list_post_address (
    account_id         INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
    address_normalized TEXT    NOT NULL,
    list_id            TEXT    NOT NULL,
    PRIMARY KEY (account_id, address_normalized, list_id)
) WITHOUT ROWID;

-- The To and Cc recipients of the account's own messages that carry no List-Id, in header order (To
-- first): when a list's posting address is learned, the posts already stored that were addressed to it
-- are found through the index below, without reading the rest of the mailbox.
CREATE TABLE own_post_recipient (
    message_id         INTEGER NOT NULL REFERENCES message(id) ON DELETE CASCADE,
    position           INTEGER NOT NULL,
    account_id         INTEGER NOT NULL,
    address_normalized TEXT    NOT NULL,
    PRIMARY KEY (message_id, position)
) WITHOUT ROWID;

CREATE INDEX own_post_recipient_by_address ON own_post_recipient (account_id, address_normalized);

-- Stored messages were all without list data; their own posts' recipients are listed once here. The
-- original header order is not stored, so To rows come first, each role in address order.
INSERT INTO own_post_recipient (message_id, position, account_id, address_normalized)
SELECT mp.message_id,
       row_number() OVER (PARTITION BY mp.message_id ORDER BY mp.role DESC, mp.address_normalized) - 1,
       m.account_id, mp.address_normalized
FROM message m JOIN message_participant mp ON mp.message_id = m.id
WHERE m.is_from_me = 1 AND (mp.role = 'to' OR mp.role = 'cc');

-- Stored messages whose list headers (and Reply-To, Mail-Followup-To) are still to be read from Gmail: every
-- message stored before this migration. A sync reads them in metadata format (headers only, nothing is
-- downloaded again), re-groups each message by the rule above and deletes its row in the same transaction.
CREATE TABLE list_header_backfill (
    account_id INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
    gmail_id   TEXT    NOT NULL,
    PRIMARY KEY (account_id, gmail_id)
) WITHOUT ROWID;

INSERT INTO list_header_backfill (account_id, gmail_id) SELECT account_id, gmail_id FROM message;
