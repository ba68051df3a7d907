import * as v from 'valibot';

export const PhotoView = v.pipe(
  v.object({
    url: v.pipe(v.string(), v.url(), v.description('The stored image, as `images`, `hero` and `gallery` show it.')),
    width: v.pipe(v.nullable(v.pipe(v.number(), v.integer())), v.description('Intrinsic width in pixels.')),
    height: v.pipe(v.nullable(v.pipe(v.number(), v.integer())), v.description('Intrinsic height in pixels.')),
    placeholder: v.pipe(
      v.nullable(v.string()),
      v.description('ThumbHash of the photo, standard base64 (about 25 bytes): draw it blurred while the photo loads.'),
    ),
    srcset: v.pipe(
      v.string(),
      v.description(
        'For `<img srcset>`: `<url> 320w, <url> 640w, <url> 1200w`, only the copies that exist (none wider than the photo), narrowest first, each descriptor its true width.',
      ),
    ),
  }),
  v.title('Photo'),
  v.description(
    'A listing photo for responsive display: `photos` on listing answers (in the order of `images` or `gallery`) and `heroPhoto` (the first, or null) on storefront items. Sizes and placeholder are null for an image stored before photos were described, until `npm run images:backfill` has run; its srcset is then the stored image alone.',
  ),
  v.examples([
    {
      url: 'https://shop.example.com/uploads/3f2b7c1e.webp',
      width: 1200,
      height: 900,
      placeholder: 'mAgKDQQHmHeId3h4iIiHd4eAiHAI',
      srcset: 'https://shop.example.com/uploads/3f2b7c1e-320.webp 320w, https://shop.example.com/uploads/3f2b7c1e-640.webp 640w, https://shop.example.com/uploads/3f2b7c1e.webp 1200w',
    },
  ]),
);

export type PhotoView = v.InferOutput<typeof PhotoView>;
