CREATE TABLE "idempotency_keys" (
	"scope" text NOT NULL,
	"route" text NOT NULL,
	"key" text NOT NULL,
	"fingerprint" text NOT NULL,
	"status" integer,
	"body" jsonb,
	"createdAt" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_scope_route_key_pk" PRIMARY KEY("scope","route","key")
);
--> statement-breakpoint
CREATE INDEX "idempotency_keys_createdAt_idx" ON "idempotency_keys" USING btree ("createdAt");