CREATE TABLE "direct_uploads" (
	"publicId" text PRIMARY KEY NOT NULL,
	"userId" uuid,
	"issuedAt" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"attachedAt" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "direct_uploads" ADD CONSTRAINT "direct_uploads_userId_users_id_fk" FOREIGN KEY ("userId") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE cascade;--> statement-breakpoint
CREATE INDEX "direct_uploads_issuedAt_idx" ON "direct_uploads" USING btree ("issuedAt");