import { describe, expect, it } from 'vitest';
import { callerAddressOf, VIEWER_ADDRESS_HEADER, VIEWER_ADDRESS_STAGE_VARIABLE } from '#shared/http/caller-address';

const behindEdge = { [VIEWER_ADDRESS_STAGE_VARIABLE]: VIEWER_ADDRESS_HEADER };
const event = (headers: Record<string, string> | null, stageVariables: Record<string, string> | null, sourceIp: string | undefined = '198.51.100.1') => ({ headers, stageVariables, requestContext: { identity: { sourceIp } } });

describe('the caller address every per-source limit counts', () => {
  it("is the connection's on a stage that does not say the distribution is its one way in, whatever the headers say", () => {
    for (const stage of [null, {}, { other: VIEWER_ADDRESS_HEADER }] as (Record<string, string> | null)[]) {
      expect(callerAddressOf(event({ [VIEWER_ADDRESS_HEADER]: '203.0.113.9', 'x-forwarded-for': '203.0.113.8' }, stage))).toBe('198.51.100.1');
    }
  });

  it("is the viewer's, as the distribution wrote it, on a stage that says so: its header named in any case, IPv4 or IPv6", () => {
    expect(callerAddressOf(event({ [VIEWER_ADDRESS_HEADER]: '203.0.113.9' }, behindEdge))).toBe('203.0.113.9');
    expect(callerAddressOf(event({ 'X-Viewer-Address': '2001:db8::7' }, behindEdge))).toBe('2001:db8::7');
    expect(callerAddressOf(event({ [VIEWER_ADDRESS_HEADER]: ' 203.0.113.9 ' }, behindEdge))).toBe('203.0.113.9');
  });

  it("falls back to the connection's when the header is missing or no address: one with a port, a list, a name, a near miss", () => {
    for (const value of ['', '203.0.113.9:443', '203.0.113.9, 198.51.100.2', 'localhost', '203.0.113.256', '203.0.113']) {
      expect(callerAddressOf(event({ [VIEWER_ADDRESS_HEADER]: value }, behindEdge)), value).toBe('198.51.100.1');
    }
    expect(callerAddressOf(event(null, behindEdge))).toBe('198.51.100.1');
    expect(callerAddressOf(event({ 'x-forwarded-for': '203.0.113.9' }, behindEdge))).toBe('198.51.100.1');
    expect(callerAddressOf({ headers: {}, stageVariables: behindEdge, requestContext: { identity: {} } })).toBeUndefined();
  });
});
