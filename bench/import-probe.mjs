// Runs in a fresh Node process: imports one module by file URL and prints how long that took, in ms.
const started = performance.now();
await import(process.argv[2]);
process.stdout.write(`${performance.now() - started}\n`);
process.exit(0);
