import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Document, Spectral } from '@stoplight/spectral-core';
import { Json as JsonParser } from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import { check } from 'recheck';
import { describe, expect, it } from 'vitest';
import { serializeDocument } from '#shared/openapi/document';
import { buildDocument } from '../functions/meta/document';
import { TEXT_PATTERN } from '#shared/schema';

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

  // A validator that backtracks (JavaScript's, Python's re) reads a pattern that has two ways to take the same text in
  // time growing as a power of the text's length: a client validating a long value would stall. recheck decides by
  // automata where it can and fuzzes where it cannot (a bounded repeat, a look-ahead); its JavaScript backend, the same on
  // every machine, with no time limit of its own, so that it answers by counted steps, never by how busy the machine is.
  process.env.RECHECK_BACKEND = 'pure';
  const unhurried = { timeout: null, attackTimeout: null, incubationTimeout: null, seedingTimeout: null };
  it.each([...patterns])('take time linear in the length of the text, whatever the text: %s', async (pattern) => {
    // Refused, it shows the complexity found and the text that takes that long.
    expect(await check(pattern, 'u', unhurried)).toMatchObject({ status: 'safe' });
  }, 300_000);
});
