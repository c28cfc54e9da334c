import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['test/support/table-per-file.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Each file has its own table on the one DynamoDB Local, so files run in parallel.
    fileParallelism: true,
    // The handlers' one-line INFO access logs would drown the output; warnings and errors still show.
    onConsoleLog: (log) => !log.startsWith('{"level":"INFO","message":"request"'),
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
  },
});
