CREATE TYPE "public"."ListingStatus" AS ENUM('AVAILABLE', 'PENDING', 'SOLD', 'ARCHIVED');--> statement-breakpoint
CREATE TYPE "public"."Role" AS ENUM('SUPER_ADMIN', 'AGENT');--> statement-breakpoint
CREATE TYPE "public"."SyndicationAction" AS ENUM('NEW_POST', 'EDITED', 'DELETED');--> statement-breakpoint
CREATE TYPE "public"."SyndicationStatus" AS ENUM('PENDING', 'SUCCESS', 'FAILED');--> statement-breakpoint
CREATE TABLE "agent_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"createdById" uuid NOT NULL,
	"agentName" text NOT NULL,
	"agentPhone" text DEFAULT '' NOT NULL,
	"role" "Role" DEFAULT 'AGENT' NOT NULL,
	"isUsed" boolean DEFAULT false NOT NULL,
	"usedById" uuid,
	"maxUses" integer DEFAULT 1 NOT NULL,
	"useCount" integer DEFAULT 0 NOT NULL,
	"revokedAt" timestamp (3) with time zone,
	"expiresAt" timestamp (3) with time zone NOT NULL,
	"createdAt" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cache_entries" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"expiresAt" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "categories" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"displayName" text NOT NULL,
	"icon" text DEFAULT '' NOT NULL,
	"schemaRules" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"createdAt" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updatedAt" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "categories_name_key" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "listings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"price" numeric(12, 2) NOT NULL,
	"status" "ListingStatus" DEFAULT 'AVAILABLE' NOT NULL,
	"city" text,
	"neighborhood" text,
	"images" text[] DEFAULT '{}'::text[] NOT NULL,
	"attributes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"customTelegramCaption" text,
	"categoryId" uuid NOT NULL,
	"agentId" uuid,
	"viewsCount" integer DEFAULT 0 NOT NULL,
	"inquiryClicks" integer DEFAULT 0 NOT NULL,
	"stockQuantity" integer DEFAULT 0 NOT NULL,
	"commissionPercent" numeric(5, 2),
	"createdAt" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updatedAt" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"userId" uuid NOT NULL,
	"title" text NOT NULL,
	"body" text,
	"type" text NOT NULL,
	"data" jsonb,
	"isRead" boolean DEFAULT false NOT NULL,
	"createdAt" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	"resetAt" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb,
	"updatedAt" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "syndication_configs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"platform" text NOT NULL,
	"botToken" text,
	"channelId" text,
	"apiKey" text,
	"apiSecret" text,
	"isActive" boolean DEFAULT true NOT NULL,
	"extraConfig" jsonb,
	"createdAt" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updatedAt" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "syndication_configs_platform_key" UNIQUE("platform")
);
--> statement-breakpoint
CREATE TABLE "syndication_logs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"listingId" uuid NOT NULL,
	"platform" text NOT NULL,
	"status" "SyndicationStatus" DEFAULT 'PENDING' NOT NULL,
	"action" "SyndicationAction" DEFAULT 'NEW_POST' NOT NULL,
	"channelInfo" text DEFAULT '' NOT NULL,
	"messageId" integer,
	"errorMessage" text,
	"runAt" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"password" text NOT NULL,
	"name" text NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"role" "Role" DEFAULT 'AGENT' NOT NULL,
	"profileImage" text,
	"social_1" text,
	"social_2" text,
	"social_3" text,
	"social_4" text,
	"social_5" text,
	"social_6" text,
	"social_7" text,
	"social_8" text,
	"website" text,
	"customSocials" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"passwordResetToken" text,
	"passwordResetExpires" timestamp (3) with time zone,
	"passwordResetAttempts" integer DEFAULT 0 NOT NULL,
	"createdAt" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updatedAt" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_email_key" UNIQUE("email")
);
--> statement-breakpoint
ALTER TABLE "agent_codes" ADD CONSTRAINT "agent_codes_createdById_users_id_fk" FOREIGN KEY ("createdById") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "agent_codes" ADD CONSTRAINT "agent_codes_usedById_users_id_fk" FOREIGN KEY ("usedById") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "listings" ADD CONSTRAINT "listings_categoryId_categories_id_fk" FOREIGN KEY ("categoryId") REFERENCES "public"."categories"("id") ON DELETE restrict ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "listings" ADD CONSTRAINT "listings_agentId_users_id_fk" FOREIGN KEY ("agentId") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_userId_users_id_fk" FOREIGN KEY ("userId") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "syndication_logs" ADD CONSTRAINT "syndication_logs_listingId_listings_id_fk" FOREIGN KEY ("listingId") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
CREATE UNIQUE INDEX "agent_codes_code_key" ON "agent_codes" USING btree ("code");--> statement-breakpoint
CREATE INDEX "listings_status_idx" ON "listings" USING btree ("status");--> statement-breakpoint
CREATE INDEX "listings_categoryId_idx" ON "listings" USING btree ("categoryId");--> statement-breakpoint
CREATE INDEX "listings_city_neighborhood_idx" ON "listings" USING btree ("city","neighborhood");--> statement-breakpoint
CREATE INDEX "listings_agentId_createdAt_idx" ON "listings" USING btree ("agentId","createdAt" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "listings_status_createdAt_idx" ON "listings" USING btree ("status","createdAt" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "listings_createdAt_idx" ON "listings" USING btree ("createdAt" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "listings_title_trgm_idx" ON "listings" USING gin ("title" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "listings_description_trgm_idx" ON "listings" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "notifications_userId_isRead_idx" ON "notifications" USING btree ("userId","isRead");--> statement-breakpoint
CREATE INDEX "notifications_userId_createdAt_idx" ON "notifications" USING btree ("userId","createdAt" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "rate_limits_resetAt_idx" ON "rate_limits" USING btree ("resetAt");--> statement-breakpoint
CREATE INDEX "syndication_logs_listingId_runAt_idx" ON "syndication_logs" USING btree ("listingId","runAt" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "syndication_logs_runAt_idx" ON "syndication_logs" USING btree ("runAt" DESC NULLS LAST);