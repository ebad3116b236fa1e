-- 013: the one-time code each message carries, found when the message is stored, so `chatmail codes`
-- is a query and not a scan of every message's text.

-- The code as the service wrote it (`123-456`) and the service it is from (a guess from the sender),
-- NULL for the messages that carry none. Messages stored before this migration have none until they
-- are stored again; codes are only wanted from recent mail.
ALTER TABLE message ADD COLUMN verification_code TEXT;
ALTER TABLE message ADD COLUMN verification_service TEXT;

-- `codes` reads the newest messages that carry a code, for one account, from a date on.
CREATE INDEX message_with_code ON message (account_id, internal_date_ms DESC)
    WHERE verification_code IS NOT NULL;
