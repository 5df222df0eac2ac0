CREATE TABLE "ibo_changes" (
	"ibo_id" integer NOT NULL,
	"n" bigint DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "ibo_changes_ibo_idx" ON "ibo_changes" USING btree ("ibo_id");--> statement-breakpoint
-- Each IBO's business changed: one row `(ibo, 1)` per IBO named (nulls skipped; 0: every IBO's).
CREATE OR REPLACE FUNCTION ibo_changes_note(ibo_ids integer[]) RETURNS void
  LANGUAGE sql AS $$
  INSERT INTO ibo_changes (ibo_id) SELECT DISTINCT i FROM unnest(ibo_ids) AS i WHERE i IS NOT NULL ORDER BY 1
$$;
--> statement-breakpoint
-- Something of some people changed: the IBOs related to each (the one that registered their contact, the
-- one whose link their account came through), whatever their consent says (a change of it is one too).
CREATE OR REPLACE FUNCTION ibo_changes_of_contacts(contact_ids integer[]) RETURNS void
  LANGUAGE sql AS $$
  SELECT ibo_changes_note(array(
    SELECT ct.ibo_id FROM contacts ct WHERE ct.id = ANY(contact_ids)
    UNION SELECT u.referred_by_ibo_id FROM contacts ct JOIN users u ON u.id = ct.user_id WHERE ct.id = ANY(contact_ids)))
$$;
--> statement-breakpoint
-- The same for some accounts: the IBO whose link each came through, and the one that registered its contact.
CREATE OR REPLACE FUNCTION ibo_changes_of_users(user_ids integer[]) RETURNS void
  LANGUAGE sql AS $$
  SELECT ibo_changes_note(array(
    SELECT u.referred_by_ibo_id FROM users u WHERE u.id = ANY(user_ids)
    UNION SELECT ct.ibo_id FROM contacts ct WHERE ct.user_id = ANY(user_ids)))
$$;
--> statement-breakpoint
-- A row written (a row trigger): `TG_ARGV[1]` names its column, read before and after the write, and
-- `TG_ARGV[0]` what it holds: 'ibo' an IBO, 'contact' a person's contact, 'user' an account, 'everyone'
-- nothing (every IBO's business changed).
CREATE OR REPLACE FUNCTION ibo_changes_from_row() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  ids integer[] := ARRAY[]::integer[];
BEGIN
  IF TG_ARGV[0] = 'everyone' THEN
    PERFORM ibo_changes_note(ARRAY[0]);
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN ids := ids || (to_jsonb(OLD) ->> TG_ARGV[1])::integer; END IF;
  IF TG_OP <> 'DELETE' THEN ids := ids || (to_jsonb(NEW) ->> TG_ARGV[1])::integer; END IF;
  IF TG_ARGV[0] = 'ibo' THEN
    PERFORM ibo_changes_note(ids);
  ELSIF TG_ARGV[0] = 'contact' THEN
    PERFORM ibo_changes_of_contacts(ids);
  ELSE
    PERFORM ibo_changes_of_users(ids);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- The kept enrolments (a person's courses: lessons done, pass, certificate), one statement's rows at
-- once; an update that changed nothing (a progress write that finished no lesson) is no change.
CREATE OR REPLACE FUNCTION ibo_changes_from_enrolments() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM ibo_changes_of_contacts(array(SELECT DISTINCT contact_id FROM added));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM ibo_changes_of_contacts(array(SELECT DISTINCT contact_id FROM removed));
  ELSE
    PERFORM ibo_changes_of_contacts(array(
      SELECT contact_id FROM (SELECT * FROM added EXCEPT SELECT * FROM removed) a
      UNION SELECT contact_id FROM (SELECT * FROM removed EXCEPT SELECT * FROM added) r));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER enrolments_ibo_changes_insert AFTER INSERT ON enrolments REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION ibo_changes_from_enrolments();
--> statement-breakpoint
CREATE TRIGGER enrolments_ibo_changes_update AFTER UPDATE ON enrolments REFERENCING OLD TABLE AS removed NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION ibo_changes_from_enrolments();
--> statement-breakpoint
CREATE TRIGGER enrolments_ibo_changes_delete AFTER DELETE ON enrolments REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION ibo_changes_from_enrolments();
--> statement-breakpoint
-- A person's first activity of a day (their last active day); later writes of the same day change nothing shown.
CREATE OR REPLACE FUNCTION ibo_changes_from_activity() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ibo_changes_of_contacts(array(SELECT DISTINCT contact_id FROM added WHERE span = 'day'));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER learner_activity_ibo_changes AFTER INSERT ON learner_activity REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION ibo_changes_from_activity();
--> statement-breakpoint
-- Exam results (best score, attempts), a person's record and consent, referred orders, the revenue and
-- commissions of their lines, payouts, visits through a link, nudges, an IBO's own record (status,
-- code, owner) and its place in a team (its sponsor's team and the one before change), the rates.
CREATE TRIGGER exam_attempts_ibo_changes AFTER INSERT OR DELETE OR UPDATE OF score, submitted_at, passed, contact_id, evaluation_id ON exam_attempts
  FOR EACH ROW EXECUTE FUNCTION ibo_changes_from_row('contact', 'contact_id');
--> statement-breakpoint
CREATE TRIGGER contacts_ibo_changes AFTER INSERT OR DELETE OR UPDATE OF first_name, last_name, email, ibo_id, user_id, created_at, nudges_stopped_at ON contacts
  FOR EACH ROW EXECUTE FUNCTION ibo_changes_from_row('ibo', 'ibo_id');
--> statement-breakpoint
CREATE TRIGGER contacts_ibo_changes_account AFTER INSERT OR DELETE OR UPDATE OF user_id ON contacts
  FOR EACH ROW EXECUTE FUNCTION ibo_changes_from_row('user', 'user_id');
--> statement-breakpoint
CREATE TRIGGER users_ibo_changes AFTER INSERT OR DELETE OR UPDATE OF email, first_name, last_name, referred_by_ibo_id, ibo_sharing, locale, created_at ON users
  FOR EACH ROW EXECUTE FUNCTION ibo_changes_from_row('user', 'id');
--> statement-breakpoint
CREATE TRIGGER users_ibo_changes_referral AFTER UPDATE OF referred_by_ibo_id ON users
  FOR EACH ROW EXECUTE FUNCTION ibo_changes_from_row('ibo', 'referred_by_ibo_id');
--> statement-breakpoint
CREATE TRIGGER orders_ibo_changes AFTER INSERT OR DELETE OR UPDATE OF status, paid_at, referring_ibo_id, user_id, total_cents, discount_cents, subtotal_cents ON orders
  FOR EACH ROW EXECUTE FUNCTION ibo_changes_from_row('ibo', 'referring_ibo_id');
--> statement-breakpoint
CREATE TRIGGER revenue_lines_ibo_changes AFTER INSERT OR DELETE OR UPDATE ON revenue_lines
  FOR EACH ROW EXECUTE FUNCTION ibo_changes_from_row('ibo', 'referring_ibo_id');
--> statement-breakpoint
CREATE TRIGGER commissions_ibo_changes AFTER INSERT OR DELETE OR UPDATE ON commissions
  FOR EACH ROW EXECUTE FUNCTION ibo_changes_from_row('ibo', 'ibo_id');
--> statement-breakpoint
CREATE TRIGGER commission_payouts_ibo_changes AFTER INSERT OR DELETE OR UPDATE ON commission_payouts
  FOR EACH ROW EXECUTE FUNCTION ibo_changes_from_row('ibo', 'ibo_id');
--> statement-breakpoint
CREATE TRIGGER commission_rates_ibo_changes AFTER INSERT OR DELETE OR UPDATE ON commission_rates
  FOR EACH STATEMENT EXECUTE FUNCTION ibo_changes_from_row('everyone');
--> statement-breakpoint
CREATE TRIGGER affiliate_visits_ibo_changes AFTER INSERT OR DELETE OR UPDATE ON affiliate_visits
  FOR EACH ROW EXECUTE FUNCTION ibo_changes_from_row('ibo', 'ibo_id');
--> statement-breakpoint
CREATE TRIGGER nudges_ibo_changes AFTER INSERT OR DELETE OR UPDATE ON nudges
  FOR EACH ROW EXECUTE FUNCTION ibo_changes_from_row('ibo', 'ibo_id');
--> statement-breakpoint
CREATE TRIGGER ibos_ibo_changes AFTER INSERT OR DELETE OR UPDATE ON ibos
  FOR EACH ROW EXECUTE FUNCTION ibo_changes_from_row('ibo', 'id');
--> statement-breakpoint
CREATE TRIGGER ibos_ibo_changes_team AFTER INSERT OR DELETE OR UPDATE OF sponsor_ibo_id ON ibos
  FOR EACH ROW EXECUTE FUNCTION ibo_changes_from_row('ibo', 'sponsor_ibo_id');
--> statement-breakpoint
-- Each IBO's rows as one row holding their sum (the recurring job): a writer's row committed meanwhile
-- is not seen by the delete and stays, so every sum is what it was.
CREATE OR REPLACE FUNCTION ibo_changes_merge() RETURNS void
  LANGUAGE sql AS $$
  WITH gone AS (
    DELETE FROM ibo_changes c WHERE c.ibo_id IN (SELECT ibo_id FROM ibo_changes GROUP BY 1 HAVING count(*) > 1) RETURNING c.ibo_id, c.n
  )
  INSERT INTO ibo_changes (ibo_id, n) SELECT ibo_id, sum(n) FROM gone GROUP BY 1
$$;
--> statement-breakpoint
-- The embedded database (one process, which sets `academy.tell_ibo_changes`) is told of each committed
-- transaction that changed some IBO's business, so its kept pages are checked again only then; a
-- PostgreSQL server checks the counts instead, and its commits take no notification lock.
CREATE OR REPLACE FUNCTION ibo_changes_tell() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('academy.tell_ibo_changes', true) = 'on' THEN
    PERFORM pg_notify('ibo_changes', '');
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER ibo_changes_tell AFTER INSERT ON ibo_changes
  FOR EACH STATEMENT EXECUTE FUNCTION ibo_changes_tell();
