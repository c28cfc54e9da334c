import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { needsInstall, TOOLING_FOLDERS } from './infra/local/install-tooling.ts';

/**
 * The files that took longest in a fresh-clone CI run (`.ci/run`), longest first. Vitest starts the files that took
 * longest in its results cache first, and a fresh clone has none: it falls back to the largest files first, which left
 * a 50 s file of 48 lines to start near the end and the other workers idle behind it. These start first; the rest
 * follow in Vitest's own order.
 */
const SLOWEST_FIRST = [
  // First, beside files that are not the automations': started later among them, its bulk enrolment's test of the
  // step queue's fairness ran past its 30 s.
  'functions/automations/runs/automation-runs.test.ts',
  'functions/sms/sms.test.ts',
  // The console in Chromium: a browser's start and a person's journeys through every screen.
  'test/console.test.ts',
  'functions/webhooks/webhooks.test.ts',
  'functions/automations/automation-recipes.test.ts',
  'functions/audit-log/audit-log.test.ts',
  'functions/reports/reports-workload.test.ts',
  'functions/sms/sms-read.test.ts',
  'test/npm-start.test.ts',
  'functions/reports/reports-rebuild.test.ts',
  'test/readme.test.ts',
  'functions/webhooks/webhook-pause.test.ts',
  'functions/appointments/availability.test.ts',
  'test/admin.test.ts',
  'functions/automations/automation-notify.test.ts',
  'functions/reports/demo-reports.test.ts',
  'functions/stream/stream-batches.test.ts',
  'functions/automations/triggers/run-stops.test.ts',
  'functions/leads/lead-value.test.ts',
  'functions/events/events.test.ts',
  'test/generated-requests.test.ts',
  'functions/leads/lead-upsert.test.ts',
  'functions/inquiries/call-outcome.test.ts',
];

class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // With a result cached for every file (a rerun on the same machine), Vitest's order by those durations is better.
    if (files.every((spec) => this.ctx.cache.getTestSpecificationResult(spec))) return sorted;
    const rank = (spec: TestSpecification) => {
      const at = SLOWEST_FIRST.indexOf(relative(this.ctx.config.root, spec.moduleId).split('\\').join('/'));
      return at === -1 ? SLOWEST_FIRST.length : at;
    };
    return [...sorted].sort((a, b) => rank(a) - rank(b));
  }
}

// The integrations' tests need their folders' own installs, which `npm test` makes first: a run without them says so once
// (their tests then fail on the missing packages).
const notInstalled = TOOLING_FOLDERS.filter(needsInstall);
if (notInstalled.length > 0) console.warn(`Not installed: ${notInstalled.join(', ')}; their tests fail until \`npm run integrations:install\`.`);

export default defineConfig({
  test: {
    // A mutation run names its test files (test/mutation/mutate.ts): those alone.
    include: process.env.MUTATE_TEST_FILES ? process.env.MUTATE_TEST_FILES.split(',') : ['test/**/*.test.ts', 'functions/**/*.test.ts', 'console/src/**/*.test.ts', 'integrations/zapier/**/*.test.ts', 'integrations/n8n/test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    // A mutation run (test/mutation/mutate.ts) also loads the mutated files before the first test: see preload.ts there.
    setupFiles: ['test/support/table-per-file.ts', ...(process.env.MUTATE_PRELOAD ? ['test/mutation/preload.ts'] : [])],
    // Hang guards, not speed limits: no outcome here depends on the machine's speed, and a two-core machine of CI's kind,
    // busy with the other workers, the suite's DynamoDB Local and a browser, runs a file's slowest test several times
    // slower than a quiet one. A test that needs longer says so; nothing asks for less.
    testTimeout: 120_000,
    hookTimeout: 300_000,
    // Each file has its own table in a database of its own (test/support/global-setup.ts), so files run in parallel: one more
    // than the cores (three on two), as a file spends much of its time waiting on its HTTP server, its stream reader and
    // its timers. Measured on eight of the slowest files: two workers 88 s, three 73 s, four 77 s; the whole suite on two
    // cores, three 1 002 s and four 1 128 s (the cores busy throughout: DynamoDB Local took a fifth of their time).
    fileParallelism: true,
    maxWorkers: availableParallelism() + 1,
    // Worker threads rather than child processes, each file still in a fresh worker with its own environment: the whole
    // run measured about a tenth less CPU and time.
    pool: 'threads',
    // The handlers' INFO access logs would drown the output; warnings and errors still show.
    onConsoleLog: (log) => !(/"level":\s*"INFO"/.test(log) && /"message":\s*"request"/.test(log)),
    sequence: { sequencer: SlowestFirst },
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
  },
});
