-- A category that only listings in the trash use can be deleted: those listings lose it, and keep
-- its display name in "removedCategory", so a restore can answer which category is gone. A listing
-- in the shop always has its category.
ALTER TABLE "listings" ALTER COLUMN "categoryId" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "removedCategory" text;--> statement-breakpoint
ALTER TABLE "listings" ADD CONSTRAINT "listings_category_required_check" CHECK ("listings"."categoryId" is not null or ("listings"."deletedAt" is not null and "listings"."removedCategory" is not null));
