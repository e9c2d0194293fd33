/**
 * An operator's `kafka-consumer-groups.sh --reset-offsets --execute` (ConsumerGroupCommand.resetOffsets,
 * prepareOffsetsToReset, checkOffsetsRange; ClassicGroup.validateOffsetCommit), rule by rule:
 * the offsets the tool prepares, the group states it resets, the coordinator's step, and a standalone
 * OffsetCommit (generation −1) refused while the group has members.
 */
import { describe, expect, it } from 'vitest';
import { Out } from '../../src/sim/actors/out';
import { type ConsumerGroup, emptyGroup, type GroupMember } from '../../src/sim/coordinator/classicGroup';
import {
  type GroupCoordinatorContext,
  groupCoordinatorMachine,
  onOffsetCommit,
  onResetOffsets,
} from '../../src/sim/coordinator/groupCoordinator.machine';
import { offsetsToReset, type ResetOffsetsEvent, resettable } from '../../src/sim/coordinator/offsetReset';
import type { Effect } from '../../src/sim/kernel/effects';
import type { Fact } from '../../src/sim/trace/facts';
import { drive, inputOf } from '../machines/harness';

const bounds = { 'orders-0': { earliest: 2, latest: 10 }, 'orders-1': { earliest: 0, latest: 4 } };
const req = (x: Partial<ResetOffsetsEvent>) => ({ groupId: 'g', topic: 'orders', partitions: [0, 1], ...x });

describe('the offsets the tool prepares (prepareOffsetsToReset, checkOffsetsRange)', () => {
  it('--to-earliest is the log start offset, --to-latest the high watermark (ListOffsets, read_uncommitted)', () => {
    expect(offsetsToReset(req({ to: 'earliest' }), bounds, {})).toEqual({
      ok: true,
      offsets: [
        { topic: 'orders', partition: 0, offset: 2 },
        { topic: 'orders', partition: 1, offset: 0 },
      ],
    });
    expect(offsetsToReset(req({ to: 'latest' }), bounds, {})).toMatchObject({ ok: true, offsets: [{ offset: 10 }, { offset: 4 }] });
  });

  it('--to-offset is clamped into [earliest, latest] per partition', () => {
    expect(offsetsToReset(req({ to: 5 }), bounds, {})).toMatchObject({ ok: true, offsets: [{ offset: 5 }, { offset: 4 }] });
    expect(offsetsToReset(req({ to: 0 }), bounds, {})).toMatchObject({ ok: true, offsets: [{ offset: 2 }, { offset: 0 }] });
  });

  it('--shift-by moves the committed offset, clamped; a partition without one fails the whole command', () => {
    expect(offsetsToReset(req({ shiftBy: -3 }), bounds, { 'orders-0': 9, 'orders-1': 1 })).toMatchObject({
      ok: true,
      offsets: [{ offset: 6 }, { offset: 0 }],
    });
    const failed = offsetsToReset(req({ shiftBy: -1 }), bounds, { 'orders-0': 9 });
    expect(failed).toEqual({ ok: false, why: 'Cannot shift offset for partition orders-1 since there is no current committed offset' });
  });

  it('a partition whose leader cannot be asked fails the command', () => {
    expect(offsetsToReset(req({ to: 'earliest' }), { 'orders-0': null }, {}).ok).toBe(false);
  });

  it('only an inactive group is reset: Empty, or Dead (unknown to the coordinator)', () => {
    expect(['Empty', 'Dead'].every(resettable)).toBe(true);
    expect(['Stable', 'PreparingRebalance', 'CompletingRebalance'].some(resettable)).toBe(false);
  });
});

const scenario = {
  version: 1,
  seed: 1,
  topics: [{ name: 'orders', partitions: 2 }],
  clients: [{ id: 'billing', type: 'consumer', config: { 'group.id': 'g' }, topics: ['orders'] }],
};

function coordinator(state: ConsumerGroup['state'] | null, committed: Record<string, number> = {}): GroupCoordinatorContext {
  const m = drive(groupCoordinatorMachine, inputOf(scenario, 'group-coordinator'));
  m.send({ type: 'boot' }, 0);
  const ctx = m.context<GroupCoordinatorContext>();
  if (state === null) return ctx;
  const members: Record<string, GroupMember> = state === 'Empty' ? {} : { m1: { memberId: 'm1' } as unknown as GroupMember };
  return { ...ctx, groups: { g: { ...emptyGroup('g'), state, generationId: 3, members, committed } } };
}

function reset(ctx: GroupCoordinatorContext, x: Partial<ResetOffsetsEvent>): { ctx: GroupCoordinatorContext; effects: Effect[] } {
  const out = new Out();
  const event = { type: 'resetOffsets' as const, brokers: ['broker-0'], bounds, now: 100, ...req(x) };
  return { ctx: onResetOffsets(ctx, event, out), effects: out.effects };
}

const notes = (fx: readonly Effect[]) =>
  fx.flatMap((e) => (e.type === 'fact' && e.fact.kind === 'note' ? [(e.fact as Fact & { kind: 'note' }).text] : []));
const commits = (fx: readonly Effect[]) => fx.filter((e) => e.type === 'fact' && e.fact.kind === 'offsetsCommitted');

describe('the reset at the group coordinator', () => {
  it('a Stable group is not reset: the tool says why, and nothing changes', () => {
    const before = coordinator('Stable', { 'orders-0': 7 });
    const { ctx, effects } = reset(before, { to: 'earliest' });
    expect(ctx).toBe(before);
    expect(commits(effects)).toEqual([]);
    expect(notes(effects)).toEqual([
      'an operator ran kafka-consumer-groups --reset-offsets --to-earliest on group g (orders); it printed "Assignments can only be reset if the group \'g\' is inactive, but the current state is Stable." and reset nothing',
    ]);
  });

  it('an Empty group: the offsets become its committed offsets, written to __consumer_offsets as an OffsetCommit (generation −1)', () => {
    const before = coordinator('Empty', { 'orders-0': 7, 'orders-1': 4 });
    const { ctx, effects } = reset(before, { to: 'earliest' });
    expect(ctx.groups.g?.committed).toEqual({ 'orders-0': 2, 'orders-1': 0 });
    expect(commits(effects)).toHaveLength(1);
    expect(commits(effects)[0]).toMatchObject({ fact: { groupId: 'g', generationId: -1, transactional: false } });
    // one offset record per partition reset, in the group's __consumer_offsets partition
    const written = Object.values(ctx.logs).filter((l) => l.logEndOffset > 0);
    expect(written.map((l) => l.logEndOffset)).toEqual([2]);
  });

  it('a group the coordinator does not know (Dead) is created Empty and reset', () => {
    const { ctx } = reset(coordinator(null), { to: 5 });
    expect(ctx.groups.g?.committed).toEqual({ 'orders-0': 5, 'orders-1': 4 });
    expect(ctx.groups.g?.state).toBe('Empty');
  });

  it('--shift-by without a committed offset: nothing is reset', () => {
    const before = coordinator('Empty', { 'orders-0': 7 });
    const { ctx, effects } = reset(before, { shiftBy: -2 });
    expect(ctx).toBe(before);
    expect(notes(effects)[0]).toContain('Cannot shift offset for partition orders-1');
  });
});

describe('OffsetCommit without a membership (generation −1, no member id: assign(), or the admin client)', () => {
  const commit = (ctx: GroupCoordinatorContext) => {
    const out = new Out();
    const ev = {
      type: 'OffsetCommit',
      from: 'reader.consumer',
      envelopeId: 1,
      inReplyTo: null,
      now: 5,
      payload: { correlationId: 1, groupId: 'g', generationId: -1, memberId: '', offsets: [{ topic: 'orders', partition: 0, offset: 3 }] },
    };
    const next = onOffsetCommit(ctx, ev as never, out);
    const answer = out.effects.find((e) => e.type === 'send');
    return { next, error: (answer?.type === 'send' ? (answer.payload as { error: string }) : { error: '?' }).error };
  };

  it('is refused with UNKNOWN_MEMBER_ID while the group has members, accepted once it is Empty', () => {
    expect(commit(coordinator('Stable')).error).toBe('UNKNOWN_MEMBER_ID');
    expect(commit(coordinator('PreparingRebalance')).error).toBe('UNKNOWN_MEMBER_ID');
    const ok = commit(coordinator('Empty'));
    expect(ok.error).toBe('NONE');
    expect(ok.next.groups.g?.committed['orders-0']).toBe(3);
  });
});
