/** The analysis split into pieces for the trip from the worker and joined again is the same analysis. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeDump } from '../../sim/dump/analyze';
import { parseDump } from '../../sim/dump/parse';
import { joinAnalysis, splitAnalysis } from './dumpChunks';
import { encodeDumpLink, MAX_LINKABLE_TEXT } from './dumpLink';

const analysis = () => {
  const r = parseDump(readFileSync(new URL('../../../tests/fixtures/dumps/kafka/kafka-4.0-print-data-log.txt', import.meta.url), 'utf8'));
  if (!r.ok) throw new Error('fixture does not parse');
  return analyzeDump(r.dump);
};

describe('the analysis in pieces', () => {
  it('splits the records out in chunks of the given size and joins them back to the same analysis', () => {
    const a = analysis();
    const n = a.lanes.reduce((k, l) => k + l.row.records.length, 0);
    const { shell, chunks } = splitAnalysis(a, 2);
    expect(shell.lanes.every((l) => l.row.records.length === 0)).toBe(true);
    expect(chunks.every((c) => c.records.length <= 2)).toBe(true);
    expect(chunks.reduce((k, c) => k + c.records.length, 0)).toBe(n);
    expect(joinAnalysis(structuredClone(shell), structuredClone(chunks))).toEqual(a);
  });
});

describe('a dump link is not attempted for text that cannot fit', () => {
  it('gives up without compressing beyond MAX_LINKABLE_TEXT, and links a small dump', () => {
    expect(encodeDumpLink([{ name: 'big.txt', text: 'x'.repeat(MAX_LINKABLE_TEXT + 1) }])).toBeNull();
    expect(encodeDumpLink([{ name: 'small.txt', text: 'baseOffset: 0' }])).toMatch(/^#dump=1\./);
  });
});
