-- 004: full-text search over subjects and bubble text.
-- An external-content FTS5 table keyed by message.id (the rowid), kept in step by triggers so that
-- every insert, update and delete of a message updates the index with the SAME rowid
-- (the original app's triggers disagreed on the rowid: lessons-from-the-ios-app.md, 15).

CREATE VIRTUAL TABLE message_fts USING fts5(
    subject,
    body_text,
    content = 'message',
    content_rowid = 'id',
    tokenize = 'unicode61 remove_diacritics 2'
);

CREATE TRIGGER message_fts_after_insert AFTER INSERT ON message BEGIN
    INSERT INTO message_fts (rowid, subject, body_text) VALUES (new.id, new.subject, new.body_text);
END;

CREATE TRIGGER message_fts_after_delete AFTER DELETE ON message BEGIN
    INSERT INTO message_fts (message_fts, rowid, subject, body_text)
    VALUES ('delete', old.id, old.subject, old.body_text);
END;

CREATE TRIGGER message_fts_after_update AFTER UPDATE OF subject, body_text ON message BEGIN
    INSERT INTO message_fts (message_fts, rowid, subject, body_text)
    VALUES ('delete', old.id, old.subject, old.body_text);
    INSERT INTO message_fts (rowid, subject, body_text) VALUES (new.id, new.subject, new.body_text);
END;
