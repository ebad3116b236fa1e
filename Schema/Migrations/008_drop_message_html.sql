-- 008: the sanitized HTML body is no longer stored.
--
-- 003 kept every message's allow-list-sanitized HTML, but nothing ever read it back: bubbles, search,
-- export and the JSON output all use the text, and `chatmail view` sanitizes the HTML it is given. The
-- column only cost disk space and write time on every sync. Dropping it rewrites the table once.
ALTER TABLE message DROP COLUMN body_html_sanitized;
