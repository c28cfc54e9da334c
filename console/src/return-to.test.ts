import { describe, expect, it } from 'vitest';
import { isConsolePath, returnTarget } from './return-to';
import { CONSOLE_BASE } from './base';

/** Where the console goes after signing in (return-to.ts): a path on its own origin, or Today. */
const ORIGIN = 'https://console.example.com';
const target = (asked: string | null) => returnTarget(asked, ORIGIN);

describe('a return target', () => {
  it.each([
    ['/console/pipeline', '/console/pipeline'],
    ['/console/inbox/inq_1?filter=unread#top', '/console/inbox/inq_1?filter=unread#top'],
    ['/oauth/authorize?client_id=c&state=s%2Fx', '/oauth/authorize?client_id=c&state=s%2Fx'],
    ['/prod/oauth/authorize?state=a', '/prod/oauth/authorize?state=a'],
    // Percent-encoded slashes and backslashes stay a path of this origin: a browser does not decode them into a host.
    ['/%2F%2Fevil.example/x', '/%2F%2Fevil.example/x'],
    ['/%5Cevil.example/x', '/%5Cevil.example/x'],
    ['/console/../leads', '/leads'],
  ])('takes the path %j as %j', (asked, expected) => {
    expect(target(asked)).toBe(expected);
  });

  it.each([
    // Another origin, however written.
    ['//evil.example/x'],
    ['/\\evil.example/x'],
    ['\\\\evil.example/x'],
    ['\\/evil.example/x'],
    ['https://evil.example/x'],
    ['https:evil.example'],
    ['javascript:alert(1)'],
    ['data:text/html,hi'],
    // This origin's own URL, with a path a browser would take to another host.
    [`${ORIGIN}//evil.example/x`],
    [`${ORIGIN}/\\evil.example/x`],
    [`${ORIGIN}/console/pipeline`],
    // Control characters: the URL parser drops a tab or a line break, so `/\t/host` would be `//host`.
    ['/\t/evil.example/x'],
    ['/\n/evil.example/x'],
    ['/\r/evil.example'],
    ['/console\u0000/x'],
    ['/console\u007f'],
    // A path that resolves to two slashes first.
    ['/.//evil.example/x'],
    ['/console/..//evil.example/x'],
    // Not a path at all.
    ['console/pipeline'],
    [' /console'],
    [''],
    [null],
  ])('refuses %j for Today', (asked) => {
    expect(target(asked)).toBe(CONSOLE_BASE);
  });

  it('never goes back to the sign-in screen, which would loop', () => {
    expect(target(`${CONSOLE_BASE}/sign-in?return=%2Fconsole`)).toBe(CONSOLE_BASE);
  });
});

describe('a console path', () => {
  it.each([
    [CONSOLE_BASE, true],
    [`${CONSOLE_BASE}/pipeline`, true],
    [`${CONSOLE_BASE}?tab=today`, true],
    // A prefix of another word, and the API's own pages: reached by loading them.
    [`${CONSOLE_BASE}s`, false],
    [`${CONSOLE_BASE}-old/pipeline`, false],
    ['/oauth/authorize?client_id=x', false],
    [`/x${CONSOLE_BASE}/pipeline`, false],
  ])('%s is a screen of the console: %s', (path, screen) => {
    expect(isConsolePath(path)).toBe(screen);
  });
});
