import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/**
 * Suites that each take most of a minute or more on two cores although their files are small. Vitest orders files
 * by their last duration when it has one and by size when it has none (a fresh clone, as CI is), which left these
 * to start last and the run's last minute to one or two of them: started first, the three workers end together.
 */
const LONG_SUITES = [
  'functions/reports/demo-reports.test.ts',
  'functions/automations/automation-recipes.test.ts',
  'functions/reports/reports-rebuild.test.ts',
  'test/faults.test.ts',
  'test/npm-start.test.ts',
  'functions/reports/reports-workload.test.ts',
  'functions/webhooks/webhook-fairness.test.ts',
  'functions/automations/automation-notify.test.ts',
  'integrations/n8n/test/n8n-nodes.test.ts',
];

class LongSuitesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification) => {
      const index = LONG_SUITES.findIndex((suite) => spec.moduleId.endsWith(`/${suite}`));
      return index === -1 ? LONG_SUITES.length : index;
    };
    return (await super.sort(files)).map((spec, order) => ({ spec, order })).sort((a, b) => rank(a.spec) - rank(b.spec) || a.order - b.order).map(({ spec }) => spec);
  }
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'functions/**/*.test.ts', 'integrations/zapier/**/*.test.ts', 'integrations/n8n/test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['test/support/table-per-file.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Each file has its own table in its worker's own DynamoDB Local (test/support/global-setup.ts), so files run in
    // parallel: three at a time on two cores, as a file spends much of its time waiting on its HTTP server, its stream
    // reader and its timers. Measured on eight of the slowest files: two workers 88 s, three 73 s, four 77 s.
    fileParallelism: true,
    maxWorkers: 3,
    // Worker threads rather than child processes, each file still in a fresh worker with its own environment: the whole
    // run measured about a tenth less CPU and time.
    pool: 'threads',
    sequence: { sequencer: LongSuitesFirst },
    // The handlers' INFO access logs would drown the output; warnings and errors still show.
    onConsoleLog: (log) => !(/"level":\s*"INFO"/.test(log) && /"message":\s*"request"/.test(log)),
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
  },
});
