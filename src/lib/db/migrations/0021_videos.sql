CREATE TABLE "video_captions" (
	"video_id" integer NOT NULL,
	"lang" text NOT NULL,
	"media_file_id" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "video_captions_video_id_lang_pk" PRIMARY KEY("video_id","lang")
);
--> statement-breakpoint
CREATE TABLE "videos" (
	"id" serial PRIMARY KEY NOT NULL,
	"upload_id" text NOT NULL,
	"owner_id" integer,
	"title" text NOT NULL,
	"state" text DEFAULT 'uploading' NOT NULL,
	"failure" text,
	"size_bytes" bigint NOT NULL,
	"progress" smallint DEFAULT 0 NOT NULL,
	"duration_seconds" numeric(10, 2),
	"width" integer,
	"height" integer,
	"has_audio" integer DEFAULT 1 NOT NULL,
	"ladder" text,
	"media_file_id" integer,
	"poster_key" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"locked_by" text,
	"locked_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "video_captions" ADD CONSTRAINT "video_captions_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_captions" ADD CONSTRAINT "video_captions_media_file_id_media_files_id_fk" FOREIGN KEY ("media_file_id") REFERENCES "public"."media_files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "videos" ADD CONSTRAINT "videos_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "videos" ADD CONSTRAINT "videos_media_file_id_media_files_id_fk" FOREIGN KEY ("media_file_id") REFERENCES "public"."media_files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "videos_upload_uq" ON "videos" USING btree ("upload_id");--> statement-breakpoint
CREATE INDEX "videos_queue_idx" ON "videos" USING btree ("id") WHERE "videos"."state" in ('queued', 'transcoding');