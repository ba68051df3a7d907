import '../lib/cli/project-env.js';
import path from 'node:path';
import { createBuildOutputServer } from '../lib/platform/build-output-server.js';

/**
 * Serves `.vercel/output` (after `npm run build:vercel`) as the platform would, on PORT (default
 * 5000). The functions read the same environment as deployed ones; they cannot use the embedded
 * database, so DATABASE_URL must name a Postgres.
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
