CREATE TABLE "enrolments" (
	"contact_id" integer NOT NULL,
	"course_id" integer NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"lessons_done" integer DEFAULT 0 NOT NULL,
	"passed_at" timestamp with time zone,
	"certified_at" timestamp with time zone,
	CONSTRAINT "enrolments_contact_id_course_id_pk" PRIMARY KEY("contact_id","course_id"),
	CONSTRAINT "enrolments_lessons_done_ck" CHECK ("enrolments"."lessons_done" >= 0)
);
--> statement-breakpoint
CREATE TABLE "exam_item_results" (
	"attempt_id" integer NOT NULL,
	"question_id" integer NOT NULL,
	"course_id" integer NOT NULL,
	"contact_id" integer NOT NULL,
	"submitted_at" timestamp with time zone NOT NULL,
	"score" smallint NOT NULL,
	"is_right" boolean NOT NULL,
	"wrong_options" integer[] NOT NULL,
	CONSTRAINT "exam_item_results_attempt_id_question_id_pk" PRIMARY KEY("attempt_id","question_id")
);
--> statement-breakpoint
DROP INDEX "tracking_created_idx";--> statement-breakpoint
ALTER TABLE "enrolments" ADD CONSTRAINT "enrolments_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrolments" ADD CONSTRAINT "enrolments_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_item_results" ADD CONSTRAINT "exam_item_results_attempt_id_exam_attempts_id_fk" FOREIGN KEY ("attempt_id") REFERENCES "public"."exam_attempts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "enrolments_started_idx" ON "enrolments" USING btree ("started_at");--> statement-breakpoint
CREATE INDEX "enrolments_course_started_idx" ON "enrolments" USING btree ("course_id","started_at");--> statement-breakpoint
CREATE INDEX "exam_item_results_course_submitted_idx" ON "exam_item_results" USING btree ("course_id","submitted_at");--> statement-breakpoint
-- The kept figures of some contacts' courses, recomputed from the rows they summarise: a pair with no
-- progress row left is no enrolment; otherwise its first progress, its completed lessons, its first pass
-- and its certificate if not revoked. Called by the triggers below with the pairs a statement touched.
CREATE OR REPLACE FUNCTION enrolments_refresh(contact_ids integer[], course_ids integer[]) RETURNS void
  LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM enrolments e USING unnest(contact_ids, course_ids) AS p(contact_id, course_id)
    WHERE e.contact_id = p.contact_id AND e.course_id = p.course_id
      AND NOT EXISTS (SELECT 1 FROM tracking t WHERE t.contact_id = p.contact_id AND t.course_id = p.course_id);
  INSERT INTO enrolments (contact_id, course_id, started_at, lessons_done, passed_at, certified_at)
    SELECT p.contact_id, p.course_id, t.started_at, t.done,
      (SELECT min(coalesce(a.submitted_at, a.started_at)) FROM exam_attempts a JOIN evaluations ev ON ev.id = a.evaluation_id
        WHERE ev.course_id = p.course_id AND a.contact_id = p.contact_id AND a.passed),
      (SELECT k.issued_at FROM certificates k WHERE k.contact_id = p.contact_id AND k.course_id = p.course_id AND k.revoked_at IS NULL)
    FROM (SELECT DISTINCT u.contact_id, u.course_id FROM unnest(contact_ids, course_ids) AS u(contact_id, course_id)
          WHERE u.contact_id IS NOT NULL AND u.course_id IS NOT NULL ORDER BY 1, 2) p
    CROSS JOIN LATERAL (SELECT min(t.created_at) AS started_at, (count(*) FILTER (WHERE t.completed_at IS NOT NULL))::integer AS done
                        FROM tracking t WHERE t.contact_id = p.contact_id AND t.course_id = p.course_id) t
    WHERE t.started_at IS NOT NULL
  ON CONFLICT (contact_id, course_id) DO UPDATE SET started_at = excluded.started_at, lessons_done = excluded.lessons_done,
    passed_at = excluded.passed_at, certified_at = excluded.certified_at;
END $$;
--> statement-breakpoint
-- Every enrolment again, set-based (this migration, and the data-set generator, which loads without triggers).
CREATE OR REPLACE FUNCTION enrolments_rebuild() RETURNS void
  LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM enrolments;
  INSERT INTO enrolments (contact_id, course_id, started_at, lessons_done)
    SELECT t.contact_id, t.course_id, min(t.created_at), (count(*) FILTER (WHERE t.completed_at IS NOT NULL))::integer
    FROM tracking t GROUP BY t.contact_id, t.course_id;
  UPDATE enrolments e SET passed_at = p.at
    FROM (SELECT a.contact_id, ev.course_id, min(coalesce(a.submitted_at, a.started_at)) AS at
          FROM exam_attempts a JOIN evaluations ev ON ev.id = a.evaluation_id WHERE a.passed GROUP BY 1, 2) p
    WHERE p.contact_id = e.contact_id AND p.course_id = e.course_id;
  UPDATE enrolments e SET certified_at = k.issued_at FROM certificates k
    WHERE k.contact_id = e.contact_id AND k.course_id = e.course_id AND k.revoked_at IS NULL;
END $$;
--> statement-breakpoint
-- One pair's first progress and completed lessons counted again (row triggers run after their whole
-- statement, so a count, unlike an increment, stays right whatever else the statement wrote); a pair
-- without its enrolment yet gets all of it.
CREATE OR REPLACE FUNCTION enrolments_recount(p_contact integer, p_course integer) RETURNS void
  LANGUAGE plpgsql AS $$
BEGIN
  UPDATE enrolments e SET (started_at, lessons_done) =
      (SELECT min(t.created_at), (count(*) FILTER (WHERE t.completed_at IS NOT NULL))::integer FROM tracking t WHERE t.contact_id = p_contact AND t.course_id = p_course)
    WHERE e.contact_id = p_contact AND e.course_id = p_course
      AND EXISTS (SELECT 1 FROM tracking t WHERE t.contact_id = p_contact AND t.course_id = p_course);
  IF NOT FOUND THEN
    PERFORM enrolments_refresh(ARRAY[p_contact], ARRAY[p_course]);
  END IF;
END $$;
--> statement-breakpoint
-- A progress row added. Row by row: the progress writer's upserts mostly update rows already there, and
-- a row trigger costs them nothing, where a statement trigger with its table of added rows runs at every
-- write. A bulk load goes without triggers and is rebuilt.
CREATE OR REPLACE FUNCTION enrolments_from_tracking_added() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  PERFORM enrolments_recount(NEW.contact_id, NEW.course_id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER tracking_enrolments_insert AFTER INSERT ON tracking
  FOR EACH ROW EXECUTE FUNCTION enrolments_from_tracking_added();
--> statement-breakpoint
-- Progress rows removed, one statement's at once (a lesson removed cascades to every learner's row).
CREATE OR REPLACE FUNCTION enrolments_from_tracking_removed() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  -- (A cascade that removed no progress row, as most do, has nothing to do.)
  IF NOT EXISTS (SELECT 1 FROM removed) THEN
    RETURN NULL;
  END IF;
  PERFORM enrolments_refresh(array(SELECT contact_id FROM removed ORDER BY contact_id, course_id), array(SELECT course_id FROM removed ORDER BY contact_id, course_id));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER tracking_enrolments_delete AFTER DELETE ON tracking REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION enrolments_from_tracking_removed();
--> statement-breakpoint
-- A lesson completed (the same pair): counted again; a row moved to another pair: both pairs again.
CREATE OR REPLACE FUNCTION enrolments_from_tracking_change() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.contact_id = NEW.contact_id AND OLD.course_id = NEW.course_id THEN
    PERFORM enrolments_recount(NEW.contact_id, NEW.course_id);
  ELSE
    PERFORM enrolments_refresh(ARRAY[OLD.contact_id, NEW.contact_id], ARRAY[OLD.course_id, NEW.course_id]);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER tracking_enrolments_change AFTER UPDATE OF completed_at, course_id, contact_id, created_at ON tracking
  FOR EACH ROW WHEN (OLD.completed_at IS DISTINCT FROM NEW.completed_at OR OLD.course_id IS DISTINCT FROM NEW.course_id
    OR OLD.contact_id IS DISTINCT FROM NEW.contact_id OR OLD.created_at IS DISTINCT FROM NEW.created_at)
  EXECUTE FUNCTION enrolments_from_tracking_change();
--> statement-breakpoint
-- One enrolment's first pass, or its certificate, looked up again (an enrolment not begun yet takes
-- them when it begins).
CREATE OR REPLACE FUNCTION enrolments_repass(p_contact integer, p_course integer) RETURNS void
  LANGUAGE sql AS $$
  UPDATE enrolments e SET passed_at = (SELECT min(coalesce(a.submitted_at, a.started_at)) FROM exam_attempts a JOIN evaluations ev ON ev.id = a.evaluation_id
      WHERE ev.course_id = p_course AND a.contact_id = p_contact AND a.passed)
    WHERE e.contact_id = p_contact AND e.course_id = p_course
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION enrolments_recertify(p_contact integer, p_course integer) RETURNS void
  LANGUAGE sql AS $$
  UPDATE enrolments e SET certified_at = (SELECT k.issued_at FROM certificates k WHERE k.contact_id = p_contact AND k.course_id = p_course AND k.revoked_at IS NULL)
    WHERE e.contact_id = p_contact AND e.course_id = p_course
$$;
--> statement-breakpoint
-- An attempt's pass given, taken back by a regrade, or the attempt removed.
CREATE OR REPLACE FUNCTION enrolments_from_attempt() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM enrolments_repass(OLD.contact_id, (SELECT course_id FROM evaluations WHERE id = OLD.evaluation_id));
  END IF;
  IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR OLD.contact_id <> NEW.contact_id OR OLD.evaluation_id <> NEW.evaluation_id) THEN
    PERFORM enrolments_repass(NEW.contact_id, (SELECT course_id FROM evaluations WHERE id = NEW.evaluation_id));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER exam_attempts_enrolments_insert AFTER INSERT ON exam_attempts
  FOR EACH ROW WHEN (NEW.passed) EXECUTE FUNCTION enrolments_from_attempt();
--> statement-breakpoint
CREATE TRIGGER exam_attempts_enrolments_change AFTER UPDATE OF passed, submitted_at, contact_id, evaluation_id ON exam_attempts
  FOR EACH ROW WHEN ((OLD.passed OR NEW.passed) AND (OLD.passed IS DISTINCT FROM NEW.passed OR OLD.submitted_at IS DISTINCT FROM NEW.submitted_at
    OR OLD.contact_id IS DISTINCT FROM NEW.contact_id OR OLD.evaluation_id IS DISTINCT FROM NEW.evaluation_id))
  EXECUTE FUNCTION enrolments_from_attempt();
--> statement-breakpoint
CREATE TRIGGER exam_attempts_enrolments_delete AFTER DELETE ON exam_attempts
  FOR EACH ROW WHEN (OLD.passed) EXECUTE FUNCTION enrolments_from_attempt();
--> statement-breakpoint
-- A certificate issued, revoked, restored or removed.
CREATE OR REPLACE FUNCTION enrolments_from_certificate() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM enrolments_recertify(OLD.contact_id, OLD.course_id);
  END IF;
  IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR OLD.contact_id <> NEW.contact_id OR OLD.course_id <> NEW.course_id) THEN
    PERFORM enrolments_recertify(NEW.contact_id, NEW.course_id);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER certificates_enrolments AFTER INSERT OR DELETE OR UPDATE OF issued_at, revoked_at, contact_id, course_id ON certificates
  FOR EACH ROW EXECUTE FUNCTION enrolments_from_certificate();
--> statement-breakpoint
-- Each graded attempt's questions: right or not (exactly the right options of the version drawn) and the
-- wrong options given. One definition, read by the trigger (one attempt) and the rebuild (all of them).
CREATE OR REPLACE VIEW exam_item_results_source AS
  SELECT d.id AS attempt_id, d.qid AS question_id, d.course_id, d.contact_id, d.submitted_at, d.score,
    cardinality(k.given) > 0 AND k.given = k.correct AS is_right,
    array(SELECT g FROM unnest(k.given) AS g WHERE NOT (g = ANY (k.correct)) ORDER BY g) AS wrong_options
  FROM (SELECT a.id, ev.course_id, a.contact_id, a.submitted_at, a.score, q.value::integer AS qid, a.answers -> q.value AS chosen
        FROM exam_attempts a JOIN evaluations ev ON ev.id = a.evaluation_id
        CROSS JOIN LATERAL jsonb_array_elements_text(CASE WHEN jsonb_typeof(a.question_ids) = 'array' THEN a.question_ids ELSE '[]'::jsonb END) AS q
        WHERE a.submitted_at IS NOT NULL AND a.score IS NOT NULL AND q.value ~ '^[0-9]{1,9}$') d
  CROSS JOIN LATERAL (SELECT
      (SELECT coalesce(array_agg(o.id ORDER BY o.id), '{}') FROM question_options o WHERE o.question_id = d.qid AND o.is_correct) AS correct,
      (SELECT coalesce(array_agg(DISTINCT x::integer ORDER BY x::integer), '{}')
         FROM jsonb_array_elements_text(CASE WHEN jsonb_typeof(d.chosen) = 'array' THEN d.chosen ELSE '[]'::jsonb END) AS x
         WHERE x ~ '^[0-9]{1,9}$') AS given) k;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION exam_item_results_rebuild() RETURNS void
  LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM exam_item_results;
  INSERT INTO exam_item_results SELECT * FROM exam_item_results_source ON CONFLICT DO NOTHING;
END $$;
--> statement-breakpoint
-- An attempt graded or regraded: its questions again.
CREATE OR REPLACE FUNCTION exam_item_results_from_attempt() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM exam_item_results WHERE attempt_id = NEW.id;
  INSERT INTO exam_item_results SELECT * FROM exam_item_results_source s WHERE s.attempt_id = NEW.id ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER exam_attempts_items_insert AFTER INSERT ON exam_attempts
  FOR EACH ROW WHEN (NEW.submitted_at IS NOT NULL AND NEW.score IS NOT NULL) EXECUTE FUNCTION exam_item_results_from_attempt();
--> statement-breakpoint
CREATE TRIGGER exam_attempts_items_change AFTER UPDATE OF score, submitted_at, answers, question_ids, contact_id, evaluation_id ON exam_attempts
  -- (An attempt in progress saving its answers is neither graded before nor after: nothing to do.)
  FOR EACH ROW WHEN ((OLD.submitted_at IS NOT NULL OR NEW.submitted_at IS NOT NULL) AND (OLD.score IS DISTINCT FROM NEW.score
    OR OLD.submitted_at IS DISTINCT FROM NEW.submitted_at OR OLD.answers IS DISTINCT FROM NEW.answers
    OR OLD.question_ids IS DISTINCT FROM NEW.question_ids OR OLD.contact_id IS DISTINCT FROM NEW.contact_id
    OR OLD.evaluation_id IS DISTINCT FROM NEW.evaluation_id))
  EXECUTE FUNCTION exam_item_results_from_attempt();
--> statement-breakpoint
SELECT enrolments_rebuild();
--> statement-breakpoint
SELECT exam_item_results_rebuild();
