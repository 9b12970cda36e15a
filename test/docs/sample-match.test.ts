// How a doc's sample answer is compared with a real one, and how the doc examples are read from markdown.

import { describe, expect, it } from 'vitest';
import { isRunnableKind, readBlocks } from './doc-blocks.js';
import { sampleMismatches } from './sample-match.js';

describe('sampleMismatches', () => {
  it('accepts an answer that has what the sample shows, to the decimals it is written with', () => {
    const actual = { data: { distance: 2058.781, id: 'a1b2', token: 'sess_abc.def', at: '2026-11-27T14:57:03.000Z', extra: 1 } };
    const sample = { data: { distance: 2058.8, id: '…', token: 'sess_…', at: '2026-11-22T09:05:00.000Z' } };
    expect(sampleMismatches(actual, sample)).toEqual([]);
  });

  it('names each value the answer disagrees on', () => {
    const actual = { data: { zones: [], name: 'Ridge', fraction: 0, ratio: 0.049 } };
    const sample = { data: { zones: [{ name: 'Rockfall' }], name: 'Rockfall', fraction: 1, ratio: 0.044, missing: null } };
    expect(sampleMismatches(actual, sample)).toEqual([
      '$.data.zones: the doc shows 1 elements, the answer has 0',
      '$.data.name: the doc shows "Rockfall", the answer has "Ridge"',
      '$.data.fraction: the doc shows 1, the answer has 0',
      '$.data.ratio: the doc shows 0.044, the answer has 0.049',
      '$.data.missing: shown in the doc, absent from the answer',
    ]);
  });

  it('reads a list ending in "…" as its first elements only, and any other list as all of them', () => {
    expect(sampleMismatches([1, 2, 3], [1, '…'])).toEqual([]);
    expect(sampleMismatches([1, 2, 3], [1, 2])).toEqual(['$: the doc shows 2 elements, the answer has 3']);
    expect(sampleMismatches([], [1, '…'])).toEqual(['$: the doc shows 1 or more elements, the answer has 0']);
  });

  it('holds prefixes, timestamps and free text to their form', () => {
    expect(sampleMismatches({ t: 'usr_x' }, { t: 'sess_…' })).toHaveLength(1);
    expect(sampleMismatches({ at: 'soon' }, { at: '2026-11-22T09:05:00.000Z' })).toHaveLength(1);
    expect(sampleMismatches({ m: 'Use a name.' }, { m: '…localized sentence…' })).toEqual([]);
    expect(sampleMismatches({ m: 3 }, { m: '…localized sentence…' })).toHaveLength(1);
  });
});

describe('readBlocks', () => {
  it('attaches a marker to the fence after it and reads its options', () => {
    const md = ['text', '<!-- example: ts; append: f(); g(); prints: 1 -->', '', '```ts', 'const a = 1;', '```', '```sh', 'ls', '```'];
    const [marked, plain] = readBlocks('x.md', md.join('\n'));
    expect(marked).toMatchObject({
      line: 4,
      lang: 'ts',
      text: 'const a = 1;',
      marker: { kind: 'ts', options: { append: 'f(); g()', prints: '1' } },
    });
    expect(plain).toMatchObject({ line: 7, lang: 'sh', marker: undefined });
    expect(isRunnableKind(plain as NonNullable<typeof plain>)).toBe(true);
  });

  it('refuses an unknown kind, a "not run" without a reason, and a marker that no block follows', () => {
    expect(() => readBlocks('x.md', '<!-- example: shell -->\n```sh\nls\n```')).toThrow('x.md:1: unknown example kind');
    expect(() => readBlocks('x.md', '<!-- example: not run -->\n```sh\nls\n```')).toThrow('must say why');
    expect(() => readBlocks('x.md', '<!-- example: sh -->\nprose\n```sh\nls\n```')).toThrow('not followed by a code block');
  });

  it('counts curl and admin commands as runnable in any fence', () => {
    const [block] = readBlocks('x.md', '```\nnpm run -s admin -- help\n```');
    expect(isRunnableKind(block as NonNullable<typeof block>)).toBe(true);
  });
});
