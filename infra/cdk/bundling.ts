import { OutputFormat, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';

/**
 * How every function is bundled: esbuild, ESM for Node.js 24, minified with source maps, and the
 * AWS SDK bundled in (tree-shaken) rather than taken from the runtime, so the code that runs is the
 * code that was tested.
 */
export const BUNDLING = {
  minify: true,
  sourceMap: true,
  target: 'node24',
  format: OutputFormat.ESM,
  mainFields: ['module', 'main'],
  externalModules: [],
  // Some bundled CommonJS dependencies still call require().
  banner: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
} as const satisfies BundlingOptions;
