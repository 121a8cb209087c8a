// The walls of eslint.config.js hold: a probe file per wall is written into the tree, linted through
// ESLint's Node API and must be reported by the zone rule; a legal import (a feature using a shared
// component) must not be. The probes are removed whatever happens.
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const RULE = 'import-x/no-restricted-paths';
const tag = `lint-probe-${process.pid}`;

interface Probe {
  name: string;
  file: string;
  imports: string;
  reported: boolean;
}

const probes: Probe[] = [
  { name: 'a feature importing another feature', file: `src/web/features/tasks/${tag}.ts`, imports: '../payments/payments-api', reported: true },
  { name: 'src/web importing src/server', file: `src/web/${tag}.ts`, imports: '../server/config', reported: true },
  { name: 'src/server importing src/web', file: `src/server/${tag}.ts`, imports: '../web/i18n/zh', reported: true },
  { name: 'src/api importing src/web', file: `src/api/${tag}.ts`, imports: '../web/components/ui/toast', reported: true },
  { name: 'machines/ importing src/', file: `machines/${tag}.ts`, imports: '../src/api/constants', reported: true },
  {
    name: 'a feature importing a shared component (legal)',
    file: `src/web/features/tasks/${tag}-legal.ts`,
    imports: '../../components/ui/button',
    reported: false,
  },
];

describe('import zones (eslint.config.js)', () => {
  it('reports every import across a wall and no legal one', { timeout: 20_000 }, async () => {
    const written: string[] = [];
    try {
      for (const probe of probes) {
        const file = path.join(root, probe.file);
        writeFileSync(file, `import '${probe.imports}';\n`);
        written.push(file);
      }
      const results = await new ESLint({ cwd: root }).lintFiles(written);
      const reported = Object.fromEntries(
        probes.map((probe) => {
          const result = results.find((r) => r.filePath === path.join(root, probe.file));
          return [probe.name, result?.messages.some((message) => message.ruleId === RULE) ?? 'not linted'];
        }),
      );
      expect(reported).toEqual(Object.fromEntries(probes.map((probe) => [probe.name, probe.reported])));
    } finally {
      for (const file of written) rmSync(file, { force: true });
    }
  });
});
