// The unit project alone, for Stryker (stryker.config.mjs): no database, no DOM, so a mutant runs in
// milliseconds. The same include list and settings as the unit project of vitest.config.ts.
import { defineConfig } from 'vitest/config';
import config from './vitest.config';

const unit = config.test?.projects?.find((p): p is { test: { name: string } } => typeof p === 'object' && 'test' in p && p.test?.name === 'unit');
if (!unit) throw new Error('vitest.config.ts has no unit project');

export default defineConfig({ test: { ...unit.test, name: undefined } });
