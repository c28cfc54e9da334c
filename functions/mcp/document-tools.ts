import { buildDocument } from '../meta/document';
import { routes } from '../resources';
import { buildTools, type ApiTool } from './tools';

/**
 * Every tool, built from the document the API serves. The bundler runs this at build time and writes the result into
 * the MCP function (./built-tools.ts), which then bundles no resource; run from source, the function runs it on the
 * first request that needs the tools.
 */
export const toolsFromDocument = (): ApiTool[] => buildTools(buildDocument(), routes);
