import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

/** The documentation a new developer reads: the README, docs/ and the decisions, and the example client's README. */
const DOCS = [
  'README.md',
  'examples/client/README.md',
  ...readdirSync('docs').filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`),
  ...readdirSync('docs/decisions').filter((name) => name.endsWith('.md')).map((name) => `docs/decisions/${name}`),
];

/** Each line of a doc, numbered from 1, outside its code blocks. */
function proseLines(file: string): { line: number; text: string }[] {
  let inCode = false;
  return readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((text, index) => {
      if (text.startsWith('```')) inCode = !inCode;
      return inCode || text.startsWith('```') ? [] : [{ line: index + 1, text }];
    });
}

/** GitHub's heading anchor: lower case, punctuation dropped, each space a hyphen. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

function anchorsIn(file: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const { text } of proseLines(file)) {
    const heading = /^#{1,6}\s+(.*)$/.exec(text)?.[1];
    if (heading === undefined) continue;
    const anchor = anchorOf(heading);
    const count = seen.get(anchor) ?? 0;
    seen.set(anchor, count + 1);
    anchors.add(count ? `${anchor}-${count}` : anchor);
  }
  return anchors;
}

describe('the docs point at what exists', () => {
  // A reader follows `functions/…/x.ts` to read the code a decision describes; a moved or deleted file leaves them nowhere.
  it('names in backticks only repository files that exist', () => {
    const missing = DOCS.flatMap((file) =>
      proseLines(file).flatMap(({ line, text }) =>
        [...text.matchAll(/`((?:functions|shared|infra|test|docs|examples|\.ci)\/[\w./-]+\.(?:ts|md|json|js|png))`/g)]
          .map((match) => match[1]!)
          .filter((path) => !existsSync(path))
          .map((path) => `${file}:${line} ${path}`),
      ),
    );
    expect(missing).toEqual([]);
  });

  it('links only to files and headings that exist', () => {
    const broken = DOCS.flatMap((file) =>
      proseLines(file).flatMap(({ line, text }) =>
        [...text.matchAll(/\]\(([^)\s]+)\)/g)]
          .map((match) => match[1]!)
          .filter((link) => !/^(https?|mailto):/.test(link))
          .filter((link) => {
            const [path, anchor] = link.split('#');
            const target = path ? normalize(join(dirname(file), path)) : file;
            if (!existsSync(target)) return true;
            return anchor !== undefined && target.endsWith('.md') && !anchorsIn(target).has(anchor);
          })
          .map((link) => `${file}:${line} ${link}`),
      ),
    );
    expect(broken).toEqual([]);
  });

  // README, "Adding an endpoint" step 5: "any choice in its area's file of docs/decisions/ with a line in docs/decisions/README.md".
  it('lists every decision of docs/decisions/ in its index', () => {
    const index = readFileSync('docs/decisions/README.md', 'utf8');
    const unlisted = readdirSync('docs/decisions')
      .filter((name) => name.endsWith('.md') && name !== 'README.md')
      .flatMap((name) =>
        proseLines(`docs/decisions/${name}`)
          .flatMap(({ text }) => (/^## (.*)$/.exec(text)?.[1] !== undefined ? [/^## (.*)$/.exec(text)![1]!] : []))
          .map((heading) => `${name}#${anchorOf(heading)}`)
          .filter((link) => !index.includes(`](${link})`)),
      );
    expect(unlisted).toEqual([]);
  });
});
