import path from 'node:path';
import { createBuildOutputServer } from '../lib/platform/build-output-server.js';

/**
 * The build-output server's process: compiled and started in plain Node by `npm run start:built`
 * (scripts/serve-built.ts), so the functions it imports run as the platform's launcher runs
 * them, with no TypeScript loader in the process. Serves the folder given on PORT (default 5000).
 */
const outputDir = path.resolve(process.argv[2] ?? '.vercel/output');
const port = Number(process.env.PORT ?? 5000) || 5000;
const server = createBuildOutputServer(outputDir);
server.listen(port, () => process.stdout.write(`serving ${outputDir} on http://localhost:${port}\n`));
const shutdown = () => {
  server.close();
  void server.settle().finally(() => process.exit(0));
};
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
