CREATE TABLE "listing_attribute_values" (
	"categoryId" uuid NOT NULL,
	"field" text NOT NULL,
	"value" text NOT NULL,
	"listings" integer NOT NULL,
	CONSTRAINT "listing_attribute_values_categoryId_field_value_pk" PRIMARY KEY("categoryId","field","value")
);
--> statement-breakpoint
CREATE TABLE "listing_totals" (
	"categoryId" uuid NOT NULL,
	"status" "ListingStatus" NOT NULL,
	"listings" integer DEFAULT 0 NOT NULL,
	"value" numeric DEFAULT 0 NOT NULL,
	"stock" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "listing_totals_categoryId_status_pk" PRIMARY KEY("categoryId","status")
);
--> statement-breakpoint
ALTER TABLE "listing_attribute_values" ADD CONSTRAINT "listing_attribute_values_categoryId_categories_id_fk" FOREIGN KEY ("categoryId") REFERENCES "public"."categories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing_totals" ADD CONSTRAINT "listing_totals_categoryId_categories_id_fk" FOREIGN KEY ("categoryId") REFERENCES "public"."categories"("id") ON DELETE cascade ON UPDATE no action;