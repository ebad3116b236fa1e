-- 011: a list's messages, found by list and date.
--
-- When messages of a list are deleted, the list's name, posting address and first/last dates are
-- recomputed from the messages left, and a posting address is forgotten when no message carries it any
-- more. Without this index each of those reads scanned the whole mailbox. Only list messages are indexed,
-- so the index costs nothing for the rest of the mail.
CREATE INDEX message_by_list ON message (account_id, list_id, internal_date_ms) WHERE list_id IS NOT NULL;
