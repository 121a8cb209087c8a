import { describe, expect, it } from 'vitest';
import { timezoneOffsetHours } from '../../../src/web/lib/timezone';

describe('timezoneOffsetHours (SPEC §9 timezone parameter)', () => {
  it('gives the offset from UTC in hours, never -0', () => {
    expect(Object.is(timezoneOffsetHours({ getTimezoneOffset: () => 0 } as Date), 0)).toBe(true);
    expect(timezoneOffsetHours({ getTimezoneOffset: () => -480 } as Date)).toBe(8);
    expect(timezoneOffsetHours({ getTimezoneOffset: () => 300 } as Date)).toBe(-5);
    expect(timezoneOffsetHours({ getTimezoneOffset: () => -330 } as Date)).toBe(5.5);
  });
});
