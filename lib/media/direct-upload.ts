import * as v from 'valibot';

/**
 * Direct uploads: a client sends its photos straight to the image host with a signed request, then
 * names them on a listing write. Serverless hosting caps a request body at 4.5 MB, so this is the
 * way large photos reach a listing there; multipart through the function stays the simple path elsewhere.
 */

/** The upload parameters the signature covers, sent as form fields next to `file`. */
export interface DirectUploadFields {
  api_key: string;
  /** The one image this ticket can make, inside the folder. */
  public_id: string;
  timestamp: number;
  transformation: string;
  format: string;
  signature: string;
}

/** What a client needs to upload files straight to the image host. */
export interface DirectUploadTicket {
  uploadUrl: string;
  cloudName: string;
  apiKey: string;
  /** The one image the ticket can make (sending again replaces it). */
  publicId: string;
  timestamp: number;
  /** When the image host stops accepting the signature. */
  expiresAt: string;
  folder: string;
  /** The incoming transformation applied before the image is stored: within 1200 x 2400 px, quality 80. */
  transformation: string;
  format: string;
  signature: string;
  /** Exactly the form fields to send with each file. */
  fields: DirectUploadFields;
}

const MAX_PUBLIC_ID_LENGTH = 255;
const MAX_URL_LENGTH = 2048;

/**
 * The part of the image host's upload response that names the image and proves where it came from.
 * A client passes each response on as it came; its other fields are ignored.
 */
export const DirectUploadResponse = v.object({
  public_id: v.pipe(v.string('must be a string'), v.nonEmpty('must not be empty'), v.maxLength(MAX_PUBLIC_ID_LENGTH, `must be at most ${MAX_PUBLIC_ID_LENGTH} characters`)),
  version: v.union([v.pipe(v.number(), v.integer(), v.minValue(1)), v.pipe(v.string(), v.regex(/^\d{1,20}$/))], 'must be the upload\'s version number'),
  signature: v.pipe(v.string('must be a string'), v.regex(/^[0-9a-f]{40,128}$/i, 'must be the upload response\'s hexadecimal signature')),
  secure_url: v.pipe(v.string('must be a string'), v.maxLength(MAX_URL_LENGTH, `must be at most ${MAX_URL_LENGTH} characters`), v.url('must be a URL')),
});

export type DirectUploadResponse = v.InferOutput<typeof DirectUploadResponse>;

/** A direct upload checked by the storage: its reference, or why it is not one of ours. */
export type DirectUploadCheck = { ref: string } | { problem: string };
