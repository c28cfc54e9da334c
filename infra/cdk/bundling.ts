import { fileURLToPath } from 'node:url';
import { OutputFormat, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';
import { readAsset } from '../../shared/http/assets';
import { rendererNameOf } from '../../shared/openapi/reference-renderer';
import { REFERENCE_RENDERER } from '../../shared/openapi/schemas';
import { packTools } from '../../functions/mcp/built-tools';
import { toolsFromDocument } from '../../functions/mcp/document-tools';

/**
 * Module substitutions for the Lambda bundles: the credential chain of a Lambda function is its environment, and no
 * function validates JSON Schema at run time (infra/cdk/no-json-schema-validator.ts).
 */
export const BUNDLE_ALIASES = {
  '@aws-sdk/credential-provider-node': fileURLToPath(new URL('../../shared/aws/lambda-credentials.ts', import.meta.url)),
  ajv: fileURLToPath(new URL('./no-json-schema-validator.ts', import.meta.url)),
  'ajv-formats': fileURLToPath(new URL('./no-json-schema-validator.ts', import.meta.url)),
} as const;

/**
 * How every function is bundled: esbuild, ESM for Node.js 24, minified, and the AWS SDK bundled in
 * (tree-shaken) rather than taken from the runtime, so the code that runs is the code that was tested.
 * Source maps are written beside each bundle but not loaded at run time (no --enable-source-maps): loading
 * them cost 8 to 60 ms per cold start (docs/performance.md); a logged stack is mapped back offline.
 */
export const BUNDLING = {
  minify: true,
  sourceMap: true,
  target: 'node24',
  format: OutputFormat.ESM,
  mainFields: ['module', 'main'],
  externalModules: [],
  esbuildArgs: Object.fromEntries(Object.entries(BUNDLE_ALIASES).map(([module, path]) => [`--alias:${module}`, path])),
  define: {
    // The reference page names its renderer by the hash of the file the script's function is built beside.
    REFERENCE_RENDERER_BUILT_NAME: JSON.stringify(rendererNameOf(readAsset(REFERENCE_RENDERER))),
    // The MCP function's tools, built from the document here rather than in the function (functions/mcp/built-tools.ts).
    MCP_TOOLS_BUILT: JSON.stringify(packTools(toolsFromDocument())),
  },
  // Some bundled CommonJS dependencies still call require().
  banner: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
} as const satisfies BundlingOptions;
