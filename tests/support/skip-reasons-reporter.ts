import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * After the run's summary, every test that skipped itself with the reason it gave
 * (`ctx.skip(condition, why)`), so that a skip is never silent, however many files ran. Tests left
 * out by a name filter (`-t`) are not listed: they were not asked for.
 */
export default class SkipReasonsReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const skipped = testModules.flatMap((module) =>
      [...module.children.allTests('skipped')].filter((test) => test.options.mode === 'run').map((test) => {
        const file = path.relative(process.cwd(), module.moduleId);
        const result = test.result();
        const note = result.state === 'skipped' ? result.note : undefined;
        return `   ${file} > ${test.fullName}: ${note ?? 'no reason given'}`;
      }),
    );
    if (skipped.length === 0) return;
    process.stdout.write(`\n Skipped, and why:\n${skipped.join('\n')}\n\n`);
  }
}
