// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ClaimProgress, claimPercent, progressTone } from '../../../src/web/components/claim-progress';

afterEach(cleanup);

describe('claim progress colour (SPEC §4, §9: thresholds 50 and 80)', () => {
  it.each([
    [0, 'green'],
    [50, 'green'],
    [51, 'orange'],
    [80, 'orange'],
    [81, 'red'],
    [100, 'red'],
    [150, 'red'],
  ] as const)('%i%% is %s', (percent, tone) => {
    expect(progressTone(percent)).toBe(tone);
  });

  it('the percent is the claimed share of the demand, rounded once', () => {
    expect(claimPercent(50, 100)).toBe(50);
    expect(claimPercent(1, 3)).toBe(33);
    expect(claimPercent(2, 3)).toBe(67);
    expect(claimPercent(0, 0)).toBe(0);
    expect(claimPercent(3, 0)).toBe(100);
  });

  it.each([
    [50, 100, '50%', 'green'],
    [51, 100, '51%', 'orange'],
    [80, 100, '80%', 'orange'],
    [81, 100, '81%', 'red'],
  ] as const)('<ClaimProgress count=%i need=%i> shows %s in %s', (count, need, text, tone) => {
    render(<ClaimProgress label="蓝牙耳机 认领进度" count={count} need={need} />);
    const label = screen.getByText(text);
    expect(label.closest('[data-tone]')?.getAttribute('data-tone')).toBe(tone);
    // Named, so a screen reader says what the bar measures (WCAG 4.1.2).
    expect(screen.getByRole('progressbar', { name: '蓝牙耳机 认领进度' }).getAttribute('aria-valuenow')).toBe(String(count));
  });
});
