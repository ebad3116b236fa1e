-- 004: full-text search over subjects and bubble text.
-- An external-content FTS5 table keyed by message.id (the rowid), so an index entry and its message
-- always share one id (the original app's triggers disagreed on it: lessons-from-the-ios-app.md, 15).
--
-- The store keeps it in step itself (SearchIndexWriter), not with triggers: FTS5 flushes its pending
-- terms at every statement savepoint, so a per-row trigger wrote one index segment per message and
-- made bulk inserts about a third slower. The store adds a transaction's new messages in ONE statement
-- and removes old entries before every update or delete.

CREATE VIRTUAL TABLE message_fts USING fts5(
    subject,
    body_text,
    content = 'message',
    content_rowid = 'id',
    tokenize = 'unicode61 remove_diacritics 2'
);
