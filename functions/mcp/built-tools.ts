import { gunzipSync, gzipSync } from 'node:zlib';
import type { ApiTool } from './tools';

/** Set by the bundler (infra/cdk/bundling.ts) to packTools of every tool; absent run from source. */
declare const MCP_TOOLS_BUILT: string | undefined;

/** The tools as the bundler writes them into the MCP function: JSON (about 350 KB), gzipped and base64-encoded (about 50 KB). */
export const packTools = (tools: readonly ApiTool[]): string => gzipSync(JSON.stringify(tools), { level: 9 }).toString('base64');

const unpackTools = (packed: string): ApiTool[] => JSON.parse(gunzipSync(Buffer.from(packed, 'base64')).toString('utf8')) as ApiTool[];

let tools: Promise<ApiTool[]> | undefined;

/**
 * Every tool, read once per container on the first request that lists or calls one. A bundle has them from build
 * time: building them takes every route's schemas, the document builder and its JSON Schema converter, which made the
 * MCP function the slowest to import, and the document itself about 80 ms on its first request. Run from source
 * (`npm start`, the tests) they are built from the document here; the bundler leaves that branch out of the bundle.
 */
export function apiTools(): Promise<ApiTool[]> {
  tools ??= typeof MCP_TOOLS_BUILT === 'string' ? Promise.resolve(unpackTools(MCP_TOOLS_BUILT)) : import('./document-tools').then(({ toolsFromDocument }) => toolsFromDocument());
  return tools;
}
