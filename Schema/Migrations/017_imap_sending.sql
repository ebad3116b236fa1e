-- 017: IMAP accounts send. After the SMTP server accepts a message, chatmail files a copy in the Sent
-- folder itself, unless the server files its own (Gmail, Outlook, iCloud), which would make two.
-- 'auto' decides by the SMTP host; 'always' and 'never' overrule it.
ALTER TABLE imap_account ADD COLUMN sent_copy TEXT NOT NULL DEFAULT 'auto'
    CHECK (sent_copy IN ('auto', 'always', 'never'));
