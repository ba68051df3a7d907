import type { IncomingMessage, ServerResponse } from 'node:http';

/** What the platform answers itself for a path no route serves (its plain NOT_FOUND page). */
export function sendPlatformStatus(req: IncomingMessage, res: ServerResponse, status: number): void {
  req.resume();
  const code = status === 404 ? 'NOT_FOUND' : 'ERROR';
  res.statusCode = status;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('X-Vercel-Error', code);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.end(`The page could not be found\n\n${code}\n`);
}

/** A redirect route's answer. */
export function sendPlatformRedirect(req: IncomingMessage, res: ServerResponse, status: number, location: string): void {
  req.resume();
  res.statusCode = status;
  res.setHeader('Location', location);
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.end(`Redirecting to ${location} (${status})\n`);
}
