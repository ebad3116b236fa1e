-- 015: each message's subject base, so every reader tells a change of topic by one value.

-- The subject without its leading reply and forward prefixes ("Re:", "AW:", "Re[2]:", "Fwd:", "WG:" and
-- their kin in other languages), list tags first, whitespace collapsed, lowercased; computed when the
-- message is stored. The chat and the export show a subject only where the base changes.
-- The prefix rule is code, not SQL, so this cannot fill the column: messages stored before this migration
-- have NULL here until chatmail, opening the database right after migrating, computes theirs.
ALTER TABLE message ADD COLUMN subject_base TEXT;

-- The messages still waiting for their base: found at once on every open, and empty once they are filled.
CREATE INDEX message_without_subject_base ON message (id) WHERE subject_base IS NULL;
