// Which upload result rows need a look (machines/upload-result.ts; decision 172): the server answers
// them in full and the result table shows them first.
import { describe, expect, it } from 'vitest';
import { needsAttention, WARNING_JOIN } from '../../machines/upload-result';

describe('needsAttention', () => {
  it('is an error, a skip, or a success with a warning joined to its message', () => {
    expect(needsAttention({ opStatus: 'error', msg: '没有该快递单号和UPC的记录' })).toBe(true);
    expect(needsAttention({ opStatus: 'skip', msg: '' })).toBe(true);
    expect(needsAttention({ opStatus: 'succ', msg: `导入成功${WARNING_JOIN}快递单号在Excel中为数字格式` })).toBe(true);
    expect(WARNING_JOIN).toBe('；');
  });

  it('is not a plain success, with or without a message', () => {
    expect(needsAttention({ opStatus: 'succ', msg: '导入成功' })).toBe(false);
    expect(needsAttention({ opStatus: 'succ', msg: '' })).toBe(false);
    expect(needsAttention({ opStatus: 'succ' })).toBe(false);
    expect(needsAttention({ opStatus: 'succ', msg: null })).toBe(false);
  });
});
