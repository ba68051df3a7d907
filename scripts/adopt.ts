import '../lib/cli/project-env.js';
import { parseArgs } from 'node:util';
import { config } from '../lib/config.js';
import { adoptDatabase, type AdoptionOutcome } from '../lib/adoption/adopt.js';
import type { TablePlan } from '../lib/adoption/plan.js';

const USAGE = 'Usage: npm run db:adopt [-- --dry-run]   (on DATABASE_URL, or the embedded database in DATA_DIR)';

function readArguments(): { dryRun: boolean } {
  try {
    const { values } = parseArgs({ options: { 'dry-run': { type: 'boolean', default: false }, help: { type: 'boolean', default: false } }, strict: true });
    if (values.help) {
      console.log(USAGE);
      process.exit(0);
    }
    return { dryRun: values['dry-run'] };
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
}

function printPlan(plan: TablePlan[]): void {
  for (const table of plan) {
    const rows = table.rows === undefined ? 'no table' : `${table.rows.toLocaleString('en-US')} ${table.rows === 1 ? 'row' : 'rows'}`;
    console.log(`  ${table.table}: ${rows}`);
    for (const note of table.notes) console.log(`    - ${note}`);
  }
}

/** Prints the outcome; answers the exit code (1 when the database was refused). */
function report(outcome: AdoptionOutcome): number {
  switch (outcome.kind) {
    case 'refused':
      console.error('Refused: this database is left as it was, because');
      for (const reason of outcome.reasons) console.error(`  - ${reason}`);
      return 1;
    case 'already-adopted':
      console.log(
        `This database already has this service's schema (${outcome.recorded} of ${outcome.migrations} migrations recorded): nothing to adopt.` +
          (outcome.recorded < outcome.migrations ? ' Run npm run db:migrate for the rest.' : ''),
      );
      return 0;
    case 'dry-run':
      console.log("Dry run: nothing is changed. Adoption would convert the original service's database in one transaction:");
      printPlan(outcome.plan);
      console.log('  then record every migration of drizzle/ as applied, so npm run db:migrate has nothing to do.');
      return 0;
    case 'adopted':
      console.log("Adopted: the original service's rows now live in this service's schema.");
      printPlan(outcome.plan);
      console.log('Rows in every table now:');
      for (const { table, rows } of outcome.counts) console.log(`  ${table}: ${rows.toLocaleString('en-US')}`);
      return 0;
  }
}

const { dryRun } = readArguments();
console.log(dryRun ? 'Reading the database (dry run)...' : 'Checking the database, then adopting it in one transaction...');
adoptDatabase(config(), { dryRun, progress: (line) => console.log(`  ${line}`) })
  .then((outcome) => {
    process.exitCode = report(outcome);
  })
  .catch((error: unknown) => {
    console.error(`Adoption stopped and nothing was changed: ${(error as Error).message}`);
    process.exitCode = 1;
  });
