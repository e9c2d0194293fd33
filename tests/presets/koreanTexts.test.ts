/**
 * The presets' Korean title, question and expected outcome: one for every shipped preset, none for a
 * preset that is gone, the same Kafka names and numbers as the English, and shown only while a
 * scenario still carries its preset's English words.
 */
import { describe, expect, it } from 'vitest';
import { findPreset, PRESETS } from '../../src/sim/presets';
import { PRESET_TEXT_KO } from '../../src/sim/presets/ko';
import { scenarioTexts } from '../../src/sim/presets/localized';

const FIELDS = ['title', 'question', 'expected'] as const;

// error codes and markers (PRODUCER_FENCED, ABORT), config keys (transaction.timeout.ms, without a
// sentence's full stop), RPC and API names
const KAFKA_NAME =
  /[A-Z_]{5,}|[a-z]+(?:\.[a-z]+)+|\b(?:InitProducerId|AddPartitionsToTxn|EndTxn|WriteTxnMarkers|TxnOffsetCommit|OffsetCommit|sendOffsetsToTransaction|initTransactions|producerId|event_id|read_committed|read_uncommitted|exactly_once_v2|at_least_once|__transaction_state|__consumer_offsets)\b/g;

const kafkaNames = (text: string) => [...new Set(text.match(KAFKA_NAME) ?? [])];
const numbers = (text: string) => [...new Set(text.match(/\d+/g) ?? [])];

describe('Korean preset texts', () => {
  it('exist for every preset, and only for shipped presets', () => {
    for (const preset of PRESETS) {
      const ko = PRESET_TEXT_KO[preset.id];
      expect(ko, preset.id).toBeDefined();
      for (const field of FIELDS) expect(ko?.[field].trim(), `${preset.id}.${field}`).not.toBe('');
    }
    expect(Object.keys(PRESET_TEXT_KO).filter((id) => !findPreset(id))).toEqual([]);
  });

  it('are Korean, and keep every Kafka name and number of the English', () => {
    for (const preset of PRESETS) {
      for (const field of FIELDS) {
        const en = preset[field];
        const ko = PRESET_TEXT_KO[preset.id]?.[field] ?? '';
        const where = `${preset.id}.${field}`;
        expect(ko, where).toMatch(/[가-힣]/);
        expect(
          kafkaNames(en).filter((name) => !ko.includes(name)),
          where,
        ).toEqual([]);
        const koNumbers = new Set(numbers(ko));
        expect(
          numbers(en).filter((n) => !koNumbers.has(n)),
          where,
        ).toEqual([]);
      }
    }
  });
});

describe('scenarioTexts', () => {
  const story = findPreset('opening-story')!;

  it("shows a preset's Korean words in Korean and its English words in English", () => {
    expect(scenarioTexts(story.scenario, 'ko', PRESET_TEXT_KO)).toEqual({ ...PRESET_TEXT_KO['opening-story'], language: 'ko' });
    expect(scenarioTexts(story.scenario, 'en', PRESET_TEXT_KO)).toEqual({
      title: story.title,
      question: story.question,
      expected: story.expected,
      language: 'en',
    });
  });

  it('shows the English words until the Korean table is there', () => {
    expect(scenarioTexts(story.scenario, 'ko', null)).toMatchObject({ title: story.title, language: 'en' });
  });

  it("keeps the scenario's own words once any of them was edited", () => {
    const edited = { ...story.scenario, title: 'Our checkout incident' };
    expect(scenarioTexts(edited, 'ko', PRESET_TEXT_KO)).toEqual({
      title: 'Our checkout incident',
      question: story.question,
      expected: story.expected,
      language: null,
    });
    const noQuestion = { ...story.scenario, question: undefined };
    expect(scenarioTexts(noQuestion, 'ko', PRESET_TEXT_KO).title).toBe(story.title);
  });

  it("keeps the words of a scenario that is not a shipped preset's", () => {
    const own = { id: 'my-scenario', title: 'Mine', question: 'Why?' };
    expect(scenarioTexts(own, 'ko', PRESET_TEXT_KO)).toEqual({ title: 'Mine', question: 'Why?', expected: undefined, language: null });
    expect(scenarioTexts({ title: story.title }, 'ko', PRESET_TEXT_KO)).toMatchObject({ title: story.title, language: null });
  });
});
