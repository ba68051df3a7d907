/**
 * A line saying what a slow step is doing, on stderr so that a command's own output on stdout
 * stays clean to read or pipe.
 */
export function progress(line: string): void {
  process.stderr.write(`${line}\n`);
}
