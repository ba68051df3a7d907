import fs from 'node:fs/promises';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export interface Asset {
  contentType: string;
  read: () => Promise<string | Buffer>;
}

/** Starts the viewer on our own document; a file rather than inline script, so the page's CSP forbids inline code. */
const START_SCRIPT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/api/openapi.json',
    dom_id: '#reference',
    deepLinking: true,
    tryItOutEnabled: false,
    persistAuthorization: false,
    displayRequestDuration: true,
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
});
`;

/** The viewer's files, bundled with swagger-ui-dist and served by our own function (no CDN). */
export const REFERENCE_ASSETS = {
  'swagger-ui.css': { contentType: 'text/css; charset=utf-8', read: () => fs.readFile(require.resolve('swagger-ui-dist/swagger-ui.css')) },
  'swagger-ui-bundle.js': {
    contentType: 'text/javascript; charset=utf-8',
    read: () => fs.readFile(require.resolve('swagger-ui-dist/swagger-ui-bundle.js')),
  },
  'favicon-32x32.png': { contentType: 'image/png', read: () => fs.readFile(require.resolve('swagger-ui-dist/favicon-32x32.png')) },
  'start.js': { contentType: 'text/javascript; charset=utf-8', read: async () => START_SCRIPT },
} satisfies Record<string, Asset>;

export const REFERENCE_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Marketplace Listing API reference</title>
    <link rel="stylesheet" href="/api/docs/swagger-ui.css">
    <link rel="icon" type="image/png" href="/api/docs/favicon-32x32.png" sizes="32x32">
    <style>body { margin: 0; }</style>
  </head>
  <body>
    <div id="reference"></div>
    <script src="/api/docs/swagger-ui-bundle.js"></script>
    <script src="/api/docs/start.js"></script>
  </body>
</html>
`;

/**
 * Scripts and styles from this origin only; the viewer sets inline styles and shows data: images,
 * and calls the API on this origin when a request is tried out.
 */
export const REFERENCE_PAGE_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
].join('; ');
