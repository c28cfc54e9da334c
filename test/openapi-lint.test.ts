import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Document, Spectral } from '@stoplight/spectral-core';
import { Json as JsonParser } from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import { describe, expect, it } from 'vitest';
import { serializeDocument } from '../shared/openapi/document';
import { buildDocument } from '../functions/meta/document';
import { TEXT_PATTERN } from '../shared/schema';

// Other people's linters read the document as integrators' tools do; a new route must not add a finding.
const source = serializeDocument(buildDocument());

describe('the OpenAPI document, read by the linters integrators use', () => {
  it("has no finding of any severity under Spectral's spectral:oas ruleset", async () => {
    const spectral = new Spectral();
    spectral.setRuleset(oas as never);
    const findings = await spectral.run(new Document(source, JsonParser, 'openapi.json'));
    const described = findings.map((finding) => `${finding.code} at ${finding.path.join('.')}: ${finding.message}`);
    expect(described).toEqual([]);
  });

  it("has no problem of any severity under Redocly's recommended ruleset", async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source, absoluteRef: 'openapi.json', config });
    const described = problems.map((problem) => `${problem.ruleId} (${problem.severity}) at ${problem.location[0]?.pointer}: ${problem.message}`);
    expect(described).toEqual([]);
  });
});

describe('the patterns of the OpenAPI document, read by validators outside JavaScript', () => {
  const patterns = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') for (const [key, value] of Object.entries(node)) key === 'pattern' && typeof value === 'string' ? patterns.add(value) : walk(value);
  };
  walk(JSON.parse(source));

  it('use no \\p{…} property escape, which JSON Schema 2020-12 (6.4) leaves out of its portable subset and Python’s re refuses', () => {
    // The free-text pattern is among them: every free-text field carries it.
    expect(patterns).toContain(TEXT_PATTERN);
    expect([...patterns].filter((pattern) => /\\[pP]\{/.test(pattern))).toEqual([]);
  });
});
