/**
 * The checklist's “is the committed offset the next one to process?” is answered from the
 * configuration, so its words must hold for a consumer that processed nothing: transaction-timeout’s
 * read_committed reader receives no record (its only one is aborted) yet commits offset 2, past the
 * aborted record and its marker. The answer said “are last processed + 1”; it now says what the
 * consumer commits — the next offset to read — in English and Korean.
 */
import { describe, expect, it } from 'vitest';
import { evaluateChecklist } from '../src/sim/checks/checklist';
import { findPreset } from '../src/sim/presets';
import { runScenario } from '../src/sim/run';

const reasonAtEnd = (id: string, language: 'en' | 'ko') => {
  const preset = findPreset(id);
  if (!preset) throw new Error(`no preset ${id}`);
  const item = evaluateChecklist(runScenario(preset.scenario), language).find((i) => i.id === 'next-offset');
  if (!item) throw new Error('no next-offset item');
  return { status: item.status, reason: item.reason };
};

describe('the next-offset answer’s words', () => {
  it('transaction-timeout: no claim about a last processed record its reader never had', () => {
    const en = reasonAtEnd('transaction-timeout', 'en');
    expect(en.status).toBe('pass');
    expect(en.reason).toBe(
      'committed-reader commits the next offset to read (after a processed record, its offset + 1), never the last processed offset itself.',
    );
    expect(en.reason).not.toContain('are last processed + 1');
    const ko = reasonAtEnd('transaction-timeout', 'ko');
    expect(ko.reason).toBe(
      'committed-reader는 다음에 읽을 위치를 커밋합니다(레코드를 처리했다면 그 offset + 1). 마지막으로 처리한 offset 자체는 커밋하지 않습니다.',
    );
  });

  it('several consumers: the verb agrees', () => {
    expect(reasonAtEnd('ctp-exactly-once-crash', 'en').reason).toMatch(
      /^enricher, auditor(,| and) raw-reader commit the next offset to read/,
    );
  });
});
