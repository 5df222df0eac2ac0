CREATE TABLE "learner_activity" (
	"span" text NOT NULL,
	"starts" date NOT NULL,
	"contact_id" integer NOT NULL,
	"first_at" timestamp with time zone NOT NULL,
	CONSTRAINT "learner_activity_span_starts_contact_id_pk" PRIMARY KEY("span","starts","contact_id"),
	CONSTRAINT "learner_activity_span_ck" CHECK ("learner_activity"."span" in ('day', 'month'))
);
--> statement-breakpoint
ALTER TABLE "learner_activity" ADD CONSTRAINT "learner_activity_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "learner_activity_contact_idx" ON "learner_activity" USING btree ("contact_id");--> statement-breakpoint
-- A person active at an instant: their first activity of its UTC day and of its UTC month, if earlier.
CREATE OR REPLACE FUNCTION learner_activity_note(contact_ids integer[], instants timestamptz[]) RETURNS void
  LANGUAGE sql AS $$
  INSERT INTO learner_activity (span, starts, contact_id, first_at)
    SELECT k.span, k.starts, a.contact_id, min(a.at)
    FROM unnest(contact_ids, instants) AS a(contact_id, at)
    CROSS JOIN LATERAL (VALUES ('day', (a.at AT TIME ZONE 'UTC')::date), ('month', date_trunc('month', a.at AT TIME ZONE 'UTC')::date)) AS k(span, starts)
    WHERE a.contact_id IS NOT NULL AND a.at IS NOT NULL
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT (span, starts, contact_id) DO UPDATE SET first_at = least(learner_activity.first_at, excluded.first_at)
$$;
--> statement-breakpoint
-- Every row again from what the academy keeps (this migration, the data-set generator): each progress
-- row's first and last write, each attempt's start and grading.
CREATE OR REPLACE FUNCTION learner_activity_rebuild() RETURNS void
  LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM learner_activity;
  INSERT INTO learner_activity (span, starts, contact_id, first_at)
    SELECT k.span, k.starts, a.contact_id, min(a.at)
    FROM (SELECT contact_id, created_at AS at FROM tracking UNION ALL SELECT contact_id, updated_at FROM tracking
          UNION ALL SELECT contact_id, started_at FROM exam_attempts UNION ALL SELECT contact_id, submitted_at FROM exam_attempts WHERE submitted_at IS NOT NULL) a
    CROSS JOIN LATERAL (VALUES ('day', (a.at AT TIME ZONE 'UTC')::date), ('month', date_trunc('month', a.at AT TIME ZONE 'UTC')::date)) AS k(span, starts)
    GROUP BY 1, 2, 3;
END $$;
--> statement-breakpoint
-- A progress row added: its person's activity (a row trigger, as the enrolment's: see 0034).
CREATE OR REPLACE FUNCTION learner_activity_from_tracking_added() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  PERFORM learner_activity_note(ARRAY[NEW.contact_id, NEW.contact_id], ARRAY[NEW.created_at, NEW.updated_at]);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER tracking_activity_insert AFTER INSERT ON tracking
  FOR EACH ROW EXECUTE FUNCTION learner_activity_from_tracking_added();
--> statement-breakpoint
-- Progress written again: only its first write of a UTC day can be anyone's first of that day (or month).
CREATE OR REPLACE FUNCTION learner_activity_from_tracking_write() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  PERFORM learner_activity_note(ARRAY[NEW.contact_id], ARRAY[NEW.updated_at]);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER tracking_activity_write AFTER UPDATE OF updated_at, contact_id ON tracking
  FOR EACH ROW WHEN ((OLD.updated_at AT TIME ZONE 'UTC')::date IS DISTINCT FROM (NEW.updated_at AT TIME ZONE 'UTC')::date
    OR OLD.contact_id IS DISTINCT FROM NEW.contact_id)
  EXECUTE FUNCTION learner_activity_from_tracking_write();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION learner_activity_from_attempt() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  PERFORM learner_activity_note(ARRAY[NEW.contact_id, NEW.contact_id], ARRAY[NEW.started_at, NEW.submitted_at]);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER exam_attempts_activity_insert AFTER INSERT ON exam_attempts
  FOR EACH ROW EXECUTE FUNCTION learner_activity_from_attempt();
--> statement-breakpoint
CREATE TRIGGER exam_attempts_activity_graded AFTER UPDATE OF submitted_at, started_at, contact_id ON exam_attempts
  FOR EACH ROW WHEN (OLD.submitted_at IS DISTINCT FROM NEW.submitted_at OR OLD.started_at IS DISTINCT FROM NEW.started_at OR OLD.contact_id IS DISTINCT FROM NEW.contact_id)
  EXECUTE FUNCTION learner_activity_from_attempt();
--> statement-breakpoint
SELECT learner_activity_rebuild();
