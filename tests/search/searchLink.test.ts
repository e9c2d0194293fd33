import { deflateSync, strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { toBase64Url } from '../../src/sim/scenario/base64url';
import { decodeLink, encodeLink, type LinkView } from '../../src/sim/scenario/link';
import { LINK_DICTIONARY_V1 } from '../../src/sim/scenario/linkDictionary';
import type { SearchResult } from '../../src/sim/search/search';
import { type LinkSearch, linkSearchResult, recordedResult } from '../../src/sim/search/searchLink';

const scenario = findPreset('ctp-exactly-once-crash')!.scenario;
const search: LinkSearch = {
  property: { id: 'no-duplicates', at: 'payments-out' },
  maxFaults: 2,
  kinds: ['crash', 'drop'],
  processes: ['txn-coordinator'],
  result: { tried: 1234, collapsed: 56, completeUpTo: 2, budgetExhausted: false },
};

function rawLink(doc: unknown): string {
  return `#s=1.${toBase64Url(deflateSync(strToU8(JSON.stringify(doc)), { level: 9, dictionary: strToU8(LINK_DICTIONARY_V1) }))}`;
}

describe('a Break it search in a share link', () => {
  it('survives link → decode with its settings and its recorded answer', () => {
    const view: LinkView = { step: 0, selection: null, language: 'ko', search };
    const d = decodeLink(encodeLink(scenario, view));
    expect(d.ok).toBe(true);
    if (!d.ok) return;
    expect(d.view.search).toEqual(search);
    expect(d.scenario).toEqual(scenario);
  });

  it("keeps the setting that the scenario's scripted faults stay (keepFaults), and refuses a non-boolean one", () => {
    const kept: LinkSearch = { ...search, keepFaults: true };
    const d = decodeLink(encodeLink(scenario, { step: 0, selection: null, language: 'en', search: kept }));
    expect(d.ok && d.view.search?.keepFaults).toBe(true);
    const bad = decodeLink(
      rawLink({ scenario, view: { step: 0, selection: null, language: 'en', search: { ...search, keepFaults: 'yes' } } }),
    );
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect((bad.error.details ?? []).map((e) => e.path)).toContain('view.search.keepFaults');
  });

  it('leaves a link without a search exactly as it was (older links keep their bytes)', () => {
    const plain = encodeLink(scenario, { step: 3, selection: null, language: 'en' });
    expect(encodeLink(scenario, { step: 3, selection: null, language: 'en', search: undefined })).toBe(plain);
    const d = decodeLink(plain);
    expect(d.ok && d.view.search).toBe(undefined);
  });

  it('refuses a hand-edited search with the JSON path of what is wrong', () => {
    const d = decodeLink(
      rawLink({
        scenario,
        view: { step: 0, selection: null, language: 'en', search: { ...search, maxFaults: 9, kinds: ['crash', 'melt'] } },
      }),
    );
    expect(d.ok).toBe(false);
    if (d.ok) return;
    expect(d.error.kind).toBe('invalid');
    const paths = (d.error.details ?? []).map((e) => e.path);
    expect(paths).toContain('view.search.maxFaults');
    expect(paths.some((p) => p.startsWith('view.search.kinds'))).toBe(true);
  });

  it('records what a finished search answered and reads it back for the report', () => {
    const fault = findPreset('at-least-once-consumer-crash')!.scenario.faults?.[0]!;
    expect(fault).toBeDefined();
    const found: SearchResult = {
      counterexample: {
        faults: [fault],
        k: 1,
        steps: [10],
        violation: {
          property: 'no-duplicates',
          layer: 'processing',
          subject: 'app',
          status: 'more-than-once',
          eventIds: ['evt-1'],
          sentence: '',
        },
        traceHash: '0',
        runSteps: 99,
        order: [1, 0],
        via: 'exhaustive',
      },
      tried: 40,
      collapsed: 2,
      completeUpTo: 0,
      maxFaults: 1,
      budgetExhausted: false,
    };
    expect(linkSearchResult(found)).toEqual({ tried: 40, collapsed: 2, completeUpTo: 0, budgetExhausted: false, counterexampleFaults: 1 });
    const none: SearchResult = { ...found, counterexample: null, completeUpTo: 1 };
    expect(linkSearchResult(none)).toEqual({ tried: 40, collapsed: 2, completeUpTo: 1, budgetExhausted: false });
    expect(recordedResult({ ...search, maxFaults: 1, result: linkSearchResult(none) })).toEqual(none);
    expect(recordedResult({ ...search, result: undefined })).toBe(null);
  });
});
