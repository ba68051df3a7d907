import * as v from 'valibot';
import { ApiError } from '../http/api-error.js';
import { content, type ContentReply } from '../http/reply.js';
import { REFERENCE_ASSETS, REFERENCE_PAGE, REFERENCE_PAGE_POLICY, type Asset } from './reference-page.js';

export const AssetParams = v.object({ asset: v.pipe(v.string('must be a string'), v.maxLength(100, 'must be at most 100 characters')) });

/** `GET /api/docs`: the API reference page. */
export async function getReferencePage(): Promise<ContentReply> {
  return content(REFERENCE_PAGE, 'text/html; charset=utf-8', { 'Content-Security-Policy': REFERENCE_PAGE_POLICY });
}

const assetCache = new Map<string, Promise<string | Buffer>>();

/** `GET /api/docs/:asset`: one of the viewer's files, by name only (nothing else is read from disk), read once per instance. */
export async function getReferenceAsset({ params }: { params: v.InferOutput<typeof AssetParams> }): Promise<ContentReply> {
  const asset: Asset | undefined = Object.hasOwn(REFERENCE_ASSETS, params.asset) ? REFERENCE_ASSETS[params.asset as keyof typeof REFERENCE_ASSETS] : undefined;
  if (!asset) throw ApiError.notFound(`Asset "${params.asset}" not found`);
  let body = assetCache.get(params.asset);
  if (!body) {
    body = asset.read();
    assetCache.set(params.asset, body);
  }
  return content(await body, asset.contentType, { 'Cache-Control': 'public, max-age=3600' });
}
