/**
 * The static part of the deployment: the service serves no pages, so the build's output folder
 * holds only what keeps crawlers off the API. The build writes these files; the local server
 * serves them from here, so both answer the same paths.
 */
export const STATIC_FILES: Readonly<Record<string, string>> = {
  'robots.txt': 'User-agent: *\nDisallow: /\n',
};
