/**
 * A line saying what a slow step is doing, on stderr so that a command's own output on stdout
 * stays clean to read or pipe.
 */
export function progress(line: string): void {
  process.stderr.write(`${line}\n`);
}

/** A bar of how far a long count has come, with its rate: `[#####-----] 500,000/1,000,000 listings, 41,000/s`. */
export function progressBar(done: number, total: number, startedAt: number, noun: string): string {
  const width = 30;
  const share = total === 0 ? 1 : done / total;
  const filled = Math.round(share * width);
  const seconds = (performance.now() - startedAt) / 1000;
  const rate = seconds > 0 ? Math.round(done / seconds) : 0;
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')} ${noun}, ${rate.toLocaleString('en-US')}/s`;
}
