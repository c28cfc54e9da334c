import { Stryker } from '@stryker-mutator/core';

/**
 * `npm run mutate -- <source files> [<test files>]`: StrykerJS changes each source file one plausible slip at a time
 * (a condition negated, a line removed, a `<` made `<=`) and runs the tests that reach the changed line against it;
 * a slip no test fails on survives. Test files named (`*.test.ts`) are the only ones run; without them, every test file
 * that imports a source file, which for a module the whole store uses is nearly all of them. Slow (minutes per file):
 * not in CI. The HTML and JSON reports are written to reports/mutation/.
 */
const args = process.argv.slice(2);
const mutate = args.filter((arg) => !arg.endsWith('.test.ts'));
const testFiles = args.filter((arg) => arg.endsWith('.test.ts'));
if (mutate.length === 0) {
  console.error('Usage: npm run mutate -- <source files> [<test files>]');
  process.exit(2);
}

// A file named with a line range (`store.ts:150-160`, as Stryker takes it) is loaded whole.
process.env.MUTATE_PRELOAD = testFiles.length > 0 ? mutate.map((file) => file.replace(/:[0-9].*$/, '')).join(',') : '';
// The test files named are the only ones Vitest includes (vitest.config.ts), not Stryker's `testFiles`: given those,
// Stryker switches a static mutant on only after the modules loaded (its runtime activation), so it changed nothing.
process.env.MUTATE_TEST_FILES = testFiles.join(',');
const results = await new Stryker({
  mutate,
  testRunner: 'vitest',
  // Without test files named, Vitest's related mode picks the test files that import what is mutated. Named ones run as
  // given: a test that reaches the code only through HTTP (the local server loads the handlers itself) imports none of
  // it, and related mode would drop it. Each test's coverage then picks, for each mutant, only the tests that ran its
  // line. One worker, one DynamoDB Local, as `--maxWorkers=1` runs them.
  vitest: { configFile: 'vitest.config.ts', related: testFiles.length === 0 },
  coverageAnalysis: 'perTest',
  concurrency: 1,
  plugins: ['@stryker-mutator/vitest-runner', new URL('./messages.ts', import.meta.url).pathname],
  ignorers: ['error-messages'],
  // Stryker rewrites the tsconfig through TypeScript's JS API, which TypeScript 7 no longer has: a name that does not
  // exist turns the rewrite off. Vitest strips the types itself, so nothing reads it.
  tsconfigFile: 'tsconfig.mutate-none.json',
  // Mutants that run only while a module loads are run against every test named (the mutated files are loaded before
  // the first test, test/mutation/preload.ts): tested by the first test that happened to load them, they would
  // survive every other. Without test files named that would be nearly the whole suite for each: left out then.
  ignoreStatic: testFiles.length === 0,
  // What runs write while a mutation run copies the project (another test run's bundles, a synth, earlier reports),
  // each from the root: a bare `reports` would also leave out functions/reports.
  ignorePatterns: ['/test-results', '/reports/mutation', '/cdk.out', '/.local', '/coverage'],
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  // Beyond the test's own time in the first run: a mutant that loops (or waits forever) is a timeout, and counts as caught.
  timeoutMS: 10_000,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
}).runMutationTest();

const count = (...statuses: string[]) => results.filter((result) => statuses.includes(result.status)).length;
const detected = count('Killed', 'Timeout');
const valid = detected + count('Survived', 'NoCoverage');
console.log(`Killed ${detected}, survived ${count('Survived')}, no coverage ${count('NoCoverage')}: score ${valid ? ((100 * detected) / valid).toFixed(1) : '–'} %`);
