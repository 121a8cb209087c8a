// scripts/machine-uses.ts (decision 132): what the state charts say depends on a state is read from
// the imports. A screen is a route's path without its pathless segments; a server call is one method
// of a handlers object, credited with the imports its body and the file's helpers it calls name.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectMachineUses, importsOf, operationsOf, screenOf } from '../../scripts/machine-uses.ts';

describe('reading the code', () => {
  it("names a route's screen as the address bar shows it, and no screen for a layout route", () => {
    expect(screenOf("export const Route = createFileRoute('/_app/_admin/admin/scan')({")).toBe('/admin/scan');
    expect(screenOf("createFileRoute('/_app/_user/user/board/$uuid')({")).toBe('/user/board/$uuid');
    expect(screenOf("createFileRoute('/_app/_admin')({")).toBeNull();
  });

  it('credits each handler method with what it and the helpers it calls use, not its neighbours', () => {
    const text = [
      "import { decideA } from '../a.ts';",
      "import { decideB } from '../b.ts';",
      'const answer = (x) => decideB(x);',
      '',
      'export const someHandlers: Handlers = {',
      '  async first(req, ctx) {',
      '    return ok(decideA(req));',
      '  },',
      '',
      '  async second(req) {',
      '    return answer(req);',
      '  },',
      '};',
    ].join('\n');
    const ops = operationsOf(text);
    expect([...ops.keys()]).toEqual(['first', 'second']);
    expect(ops.get('first')?.has('decideA')).toBe(true);
    expect(ops.get('first')?.has('decideB')).toBe(false);
    expect(ops.get('second')?.has('decideB')).toBe(true);
  });

  it('skips type-only imports: they decide nothing at run time', () => {
    const files = new Set(['src/x.ts', 'machines/task.machine.ts']);
    const text = "import type { TaskStatus } from '../machines/task.machine';\nimport { taskMachine, type TaskEvent } from '../machines/task.machine';";
    expect([...(importsOf(files, 'src/x.ts', text).from.get('machines/task.machine.ts') ?? [])]).toEqual(['taskMachine']);
  });
});

describe('the uses of this code base', () => {
  const uses = collectMachineUses(path.resolve('.'));

  it('finds the admin home counting the claims waiting: its screen and its call', () => {
    const pending = uses['machines/task.machine.ts']?.CLAIM_PENDING_STATUS;
    expect(pending?.screens).toContain('/admin/home');
    expect(pending?.calls).toContain('getAdminHome');
  });

  it('finds the scan station using the scan machine', () => {
    expect(uses['machines/scan.machine.ts']?.scanMachine?.screens).toEqual(['/admin/scan']);
    // The chart viewer reads every machine to draw it: no machine's own export counts it as a dependent.
    const viewerUses = Object.entries(uses).flatMap(([module, byName]) =>
      Object.entries(byName)
        .filter(([, u]) => u.screens.includes('/admin/machines'))
        .map(([name]) => `${module} ${name}`),
    );
    // (Only the status labels every page's frame shows, through i18n/zh-app.ts.)
    expect(viewerUses).toEqual(['machines/scan-record.statuses.ts scanStatusLabels']);
  });
});
