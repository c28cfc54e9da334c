import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'functions/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['test/support/table-per-file.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Each file has its own table on the one DynamoDB Local, so files run in parallel: two at a time even on two cores
    // (the default there is one), as a file mostly waits on DynamoDB Local and its own HTTP server.
    fileParallelism: true,
    maxWorkers: 2,
    // Worker threads rather than child processes, each file still in a fresh worker with its own environment: the whole
    // run measured about a tenth less CPU and time.
    pool: 'threads',
    // The handlers' INFO access logs would drown the output; warnings and errors still show.
    onConsoleLog: (log) => !(/"level":\s*"INFO"/.test(log) && /"message":\s*"request"/.test(log)),
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
  },
});
