CREATE TABLE "sandbox_charges" (
	"idempotency_key" text PRIMARY KEY NOT NULL,
	"fingerprint" text NOT NULL,
	"status" text NOT NULL,
	"charge_id" text,
	"amount_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"token" text NOT NULL,
	"refund_key" text,
	"refund_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_charges_chargeId_unique" UNIQUE("charge_id")
);
