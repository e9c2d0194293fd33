/**
 * The A/B view's heading names the two runs in the words the person chose — the setting B changes
 * with each side's value, or the two scenarios' titles — in English and Korean. It named them by
 * internal id ("A/B: lost-ack-idempotent vs lost-ack-idempotent + 1 change").
 */
import { describe, expect, it } from 'vitest';
import { findPreset, settingsOf } from '../../src/sim';
import { compareHeading } from '../../src/ui/compare/compareHeading';
import { compareStrings } from '../../src/ui/compare/compareStrings';

const en = compareStrings('en');
const ko = compareStrings('ko');
const lostAck = findPreset('lost-ack-idempotent')!.scenario;
const settings = settingsOf(lostAck);
const producer = settings.find((s) => s.setting === 'enable.idempotence')!.target;

describe('the A/B heading', () => {
  it('names the setting B changes, with A’s value and B’s, in English and Korean', () => {
    const input = {
      kind: 'changes',
      title: 'Lost ack',
      settings,
      changes: [{ target: producer, setting: 'enable.idempotence', value: false }],
    } as const;
    expect(compareHeading(input, en)).toBe('A: enable.idempotence=true · B: enable.idempotence=false');
    expect(compareHeading(input, ko)).toBe('A: enable.idempotence=true · B: enable.idempotence=false');
    expect(compareHeading(input, en)).not.toContain('lost-ack-idempotent');
  });

  it('before any change, names the scenario by its title and says nothing changed yet', () => {
    const input = { kind: 'changes', title: 'Lost ack', settings, changes: [] } as const;
    expect(compareHeading(input, en)).toBe('A/B: Lost ack — no setting changed yet');
    expect(compareHeading(input, ko)).toBe('A/B: Lost ack — 아직 바꾼 설정 없음');
    // a change back to A's own value is no change
    const back = { ...input, changes: [{ target: producer, setting: 'enable.idempotence', value: true }] } as const;
    expect(compareHeading(back, en)).toBe('A/B: Lost ack — no setting changed yet');
  });

  it('lists changes in the table’s order, names a setting several clients have by its client, and counts the rest', () => {
    const settingsAB = [
      { target: 'cluster', setting: 'transaction.version', current: 2, options: [1, 2] },
      { target: 'p1', setting: 'acks', current: 'all', options: ['all', '1', '0'] },
      { target: 'p2', setting: 'acks', current: 'all', options: ['all', '1', '0'] },
      { target: 'p1', setting: 'enable.idempotence', current: true, options: [true, false] },
      { target: 'c1', setting: 'isolation.level', current: 'read_uncommitted', options: ['read_uncommitted', 'read_committed'] },
    ] as const;
    const changes = [
      { target: 'c1', setting: 'isolation.level', value: 'read_committed' },
      { target: 'p1', setting: 'acks', value: '1' },
    ] as const;
    expect(compareHeading({ kind: 'changes', title: 'x', settings: settingsAB, changes }, en)).toBe(
      'A: p1 acks=all, isolation.level=read_uncommitted · B: p1 acks=1, isolation.level=read_committed',
    );
    const four = [
      ...changes,
      { target: 'cluster', setting: 'transaction.version', value: 1 },
      { target: 'p1', setting: 'enable.idempotence', value: false },
    ] as const;
    expect(compareHeading({ kind: 'changes', title: 'x', settings: settingsAB, changes: four }, en)).toBe(
      'A: transaction.version=2, p1 acks=all, enable.idempotence=true, and 1 more · B: transaction.version=1, p1 acks=1, enable.idempotence=false, and 1 more',
    );
    expect(compareHeading({ kind: 'changes', title: 'x', settings: settingsAB, changes: four }, ko)).toBe(
      'A: transaction.version=2, p1 acks=all, enable.idempotence=true 외 1개 · B: transaction.version=1, p1 acks=1, enable.idempotence=false 외 1개',
    );
  });

  it('a pair of scenarios: their titles', () => {
    expect(compareHeading({ kind: 'pair', a: 'Sink writes twice', b: 'Inbox table' }, en)).toBe('A: Sink writes twice · B: Inbox table');
  });
});
