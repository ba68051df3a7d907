-- The device tokens an account has live: recorded at sign-in (the newest 10 kept), removed all at
-- once by a password reset or change, with the network each sign-in came from.
CREATE TABLE "device_tokens" (
	"id" uuid PRIMARY KEY NOT NULL,
	"userId" uuid NOT NULL,
	"network" text NOT NULL,
	"issuedAt" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "device_tokens" ADD CONSTRAINT "device_tokens_userId_users_id_fk" FOREIGN KEY ("userId") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
CREATE INDEX "device_tokens_userId_issuedAt_idx" ON "device_tokens" USING btree ("userId","issuedAt" DESC NULLS LAST);