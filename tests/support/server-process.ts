import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The local server in a process of its own, so that a crash would show as the process ending. */
export async function startServerProcess(env: Record<string, string>): Promise<{ baseUrl: string; child: ChildProcess }> {
  const code = [
    "import { createLocalServer } from './lib/local-server/server.js';",
    'const server = createLocalServer({ projectRoot: process.cwd() });',
    "server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\\n`));",
  ].join('\n');
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    cwd: projectRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = /^(\d+)\n/.exec(output);
      if (line) resolve(line[1]!);
    });
    child.once('exit', (status) => reject(new Error(`server process ended with ${status} before listening`)));
  });
  return { baseUrl: `http://127.0.0.1:${port}`, child };
}

