// The README's map of the code matches the tree: every folder of machines/ and src/ down to two
// levels (src/server/auth, src/web/features, ...) is named in the map, and every path the map names
// exists. A folder added without a line on the map, or moved without its line, fails here.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

/** The code block under the README's "Map of the code" heading. */
function mapBlock(): string {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  const section = readme.split(/^## /m).find((s) => s.startsWith('Map of the code'));
  const block = section && /```[^\n]*\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error('README.md has no "## Map of the code" section with a code block');
  return block[1]!;
}

/** Folders under `dir` (relative to the root) to `depth` levels. */
function folders(dir: string, depth: number): string[] {
  if (depth === 0) return [];
  return readdirSync(path.join(root, dir))
    .filter((name) => statSync(path.join(root, dir, name)).isDirectory())
    .flatMap((name) => [`${dir}/${name}`, ...folders(`${dir}/${name}`, depth - 1)]);
}

/** The paths the map names: its lines' first words, as written (folders end with a slash). */
const mapPaths = (block: string) =>
  block
    .split('\n')
    .map((line) => line.trim().split(/\s+/)[0] ?? '')
    .filter((word) => /^[\w.-]+(\/[\w.-]*)*$/.test(word) && (word.includes('/') || word.includes('.')));

describe('the README map of the code', () => {
  it('names every folder of machines/ and src/ down to two levels', () => {
    const named = new Set(mapPaths(mapBlock()).map((p) => p.replace(/\/$/, '')));
    const tree = ['machines', 'src', ...folders('machines', 1), ...folders('src', 2)];
    expect(tree.filter((dir) => !named.has(dir))).toEqual([]);
  });

  it('names only paths that exist', () => {
    expect(mapPaths(mapBlock()).filter((p) => !existsSync(path.join(root, p)))).toEqual([]);
  });
});

describe('the decisions index', () => {
  it('lists every decision file of docs/decisions/, each link to a file that exists', () => {
    const dir = path.join(root, 'docs/decisions');
    const index = readFileSync(path.join(dir, 'README.md'), 'utf8');
    const links = [...index.matchAll(/\]\(([^)]+\.md)\)/g)].map((m) => m[1]!);
    const files = readdirSync(dir).filter((f) => /^\d{3}-.*\.md$/.test(f));
    expect(files.filter((f) => !links.includes(f))).toEqual([]);
    expect(links.filter((l) => !existsSync(path.join(dir, l)))).toEqual([]);
  });

  it('gives every decision its status and date under its title (accepted or superseded by NNN; changed by NNN when a later one changed it)', () => {
    const dir = path.join(root, 'docs/decisions');
    const STATUS = /^Status: (accepted|superseded by \d{3})(, changed by \d{3}(, \d{3})*)? · \d{4}-\d{2}-\d{2}$/;
    const files = readdirSync(dir).filter((f) => /^\d{3}-.*\.md$/.test(f));
    expect(files.filter((f) => !STATUS.test(readFileSync(path.join(dir, f), 'utf8').split('\n')[2] ?? ''))).toEqual([]);
  });

  it('stays a front door: at most 8 KB, the figures and the decisions in docs/', () => {
    expect(statSync(path.join(root, 'README.md')).size).toBeLessThanOrEqual(8 * 1024);
  });
});
