import fs from 'node:fs';
import http from 'node:http';
import pg from 'pg';

/**
 * The floor: a minimal node:http + pg server that answers each benchmarked path by running the
 * very statements the service ran for it (captured from its debug log) and writing the rows.
 */
export interface CapturedStatement {
  sql: string;
  params: unknown[];
}

const scenarios = JSON.parse(fs.readFileSync(process.argv[2]!, 'utf8')) as Record<string, CapturedStatement[]>;
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });

http
  .createServer((req, res) => {
    const statements = scenarios[req.url ?? ''];
    if (!statements) {
      res.statusCode = 404;
      res.end();
      return;
    }
    const run = async () => {
      const results: unknown[] = [];
      for (const statement of statements) results.push((await pool.query(statement.sql, statement.params)).rows);
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ success: true, data: results.at(-1) }));
    };
    run().catch((error: unknown) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  })
  .listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('ready\n'));
