import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import type { ClaimTarget } from '../../../machines/claim.machine';
import { claimFormSchema } from '../../../src/web/features/member-boards/claim-dialog';
import { canClaim, claimTargetOf } from '../../../src/web/features/member-boards/claim-target';

const target: ClaimTarget = { boardStatus: 'open', boardExpired: false, boardTaskStatus: 'normal', show: 10, claimed: 7 };

describe('claimFormSchema delegates to claimFieldErrors', () => {
  const issuesOf = (values: Record<string, unknown>) => {
    const result = v.safeParse(claimFormSchema(target), values);
    return result.success ? {} : Object.fromEntries(result.issues.map((i) => [v.getDotPath(i), i.message]));
  };

  it('puts every rule message on its own field', () => {
    expect(issuesOf({ count: '4', isHome: true, state: '', zipCode: '', labelCount: '' })).toEqual({
      count: '不能认领超过3件',
      state: '请填写州',
      zipCode: '请填写邮编',
      labelCount: '请填写标签数量',
    });
    expect(issuesOf({ count: 'x', isHome: false, state: '', zipCode: '', labelCount: '' })).toEqual({ count: '请输入数字' });
  });

  it('accepts valid values unchanged', () => {
    const values = { count: '3', isHome: true, state: 'CA', zipCode: '94105', labelCount: '1' };
    expect(v.parse(claimFormSchema(target), values)).toEqual(values);
  });
});

describe('claimTargetOf / canClaim', () => {
  it('maps the board and board task onto the claim rules', () => {
    expect(claimTargetOf({ status: 'open', expire: true }, { status: 'urgent', show: 8, claimCount: 2 })).toEqual({
      boardStatus: 'open',
      boardExpired: true,
      boardTaskStatus: 'urgent',
      show: 8,
      claimed: 2,
    });
    expect(canClaim(target)).toBe(true);
    expect(canClaim({ ...target, boardTaskStatus: 'full' })).toBe(false);
    expect(canClaim({ ...target, boardTaskStatus: 'deleted' })).toBe(false);
  });
});
