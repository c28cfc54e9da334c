/**
 * Stands in for ajv and ajv-formats in the Lambda bundles. Nothing bundled validates JSON Schema at run time: the MCP
 * server's default validator serves elicitation, which it never asks for, and it is given its own that refuses.
 * Leaving them out keeps 120 KB out of the MCP function's cold start; reaching this is a defect, so it throws.
 */
export default function jsonSchemaValidationNotBundled(): never {
  throw new Error('JSON Schema validation (ajv) is not bundled into the functions');
}
