-- 009: the conversation/date index also carries the two message flags the rollups aggregate.
--
-- Recomputing a conversation's rollups reads the date, `is_from_me` and `is_newsletter` of each of its
-- messages. With only (conversation_id, internal_date_ms, id) in the index, each of those reads went to
-- the message's row in the table, and on a large mailbox a conversation's rows lie on pages far apart,
-- so an incremental sync paid one page read per message of every conversation it touched. With the two
-- flags in the index the aggregates read the index alone; only the newest message's row (its snippet)
-- is still read. The key prefix is unchanged, so transcript paging walks it as before.
DROP INDEX message_by_conversation_date;
CREATE INDEX message_by_conversation_date
    ON message (conversation_id, internal_date_ms, id, is_from_me, is_newsletter);
