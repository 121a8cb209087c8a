// The unit project alone, for Stryker (stryker.config.mjs): no database, no DOM, so a mutant runs in
// milliseconds. The same include list and settings as the unit project of vitest.config.ts, but a
// test may take 5 minutes: under Stryker's coverage the planner's property tests (2,000 worlds) take
// longer than the unit project's limit on a loaded 2-core machine, and the dry run would fail.
import { defineConfig } from 'vitest/config';
import config from './vitest.config';

const unit = config.test?.projects?.find((p): p is { test: { name: string } } => typeof p === 'object' && 'test' in p && p.test?.name === 'unit');
if (!unit) throw new Error('vitest.config.ts has no unit project');

export default defineConfig({ test: { ...unit.test, name: undefined, testTimeout: 300_000 } });
