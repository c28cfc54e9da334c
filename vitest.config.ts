import { defineConfig } from 'vitest/config';

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
    // The handlers' INFO access logs would drown the output; warnings and errors still show.
    onConsoleLog: (log) => !(/"level":\s*"INFO"/.test(log) && /"message":\s*"request"/.test(log)),
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
  },
});
