/**
 * What a group coordinator that is still loading its partition answers (GroupCoordinatorService):
 * every request COORDINATOR_LOAD_IN_PROGRESS, which the client retries — except a Heartbeat: "The
 * group is still loading, so blindly respond", NONE. (The model's consumer ignores either answer to
 * a heartbeat, so only the trace told them apart.) The one-replica coordinator's restart and the
 * hosted coordinator's election answer through the same `refuseRequest`.
 */
import { describe, expect, it } from 'vitest';
import { Out } from '../../src/sim/actors/out';
import { groupCoordinatorMachine, refuseRequest } from '../../src/sim/coordinator/groupCoordinator.machine';
import type { Effect } from '../../src/sim/kernel/effects';
import { drive, inputOf } from '../machines/harness';

const request = (type: string, payload: Record<string, unknown> = {}) => ({
  type,
  from: 'c0.consumer',
  envelopeId: 1,
  inReplyTo: null,
  now: 10,
  payload: { correlationId: 5, groupId: 'g', memberId: 'm1', generationId: 3, ...payload },
});
const answer = (effects: readonly Effect[]) => {
  const e = effects.find((x) => x.type === 'send');
  return e?.type === 'send' ? { rpc: e.rpc, error: e.payload.error } : null;
};

describe('a group coordinator still loading its partition', () => {
  it('answers a Heartbeat NONE and every other request COORDINATOR_LOAD_IN_PROGRESS', () => {
    const answers = Object.fromEntries(
      ['Heartbeat', 'JoinGroup', 'SyncGroup', 'OffsetCommit', 'OffsetFetch'].map((type) => {
        const out = new Out();
        refuseRequest(request(type) as never, 'COORDINATOR_LOAD_IN_PROGRESS', out);
        return [type, answer(out.effects)?.error];
      }),
    );
    expect(answers).toEqual({
      Heartbeat: 'NONE',
      JoinGroup: 'COORDINATOR_LOAD_IN_PROGRESS',
      SyncGroup: 'COORDINATOR_LOAD_IN_PROGRESS',
      OffsetCommit: 'COORDINATOR_LOAD_IN_PROGRESS',
      OffsetFetch: 'COORDINATOR_LOAD_IN_PROGRESS',
    });
  });

  it('a coordinator that is not this partition’s any more says so, to a Heartbeat too', () => {
    const out = new Out();
    refuseRequest(request('Heartbeat') as never, 'NOT_COORDINATOR', out);
    expect(answer(out.effects)).toEqual({ rpc: 'HeartbeatResponse', error: 'NOT_COORDINATOR' });
  });

  it('the one-replica coordinator between its crash and its reload: the Heartbeat is answered NONE', () => {
    const scenario = {
      version: 1,
      seed: 1,
      topics: [{ name: 'in', partitions: 1 }],
      clients: [{ id: 'c0', type: 'consumer', config: { 'group.id': 'g' }, topics: ['in'] }],
    };
    const m = drive(groupCoordinatorMachine, inputOf(scenario, 'group-coordinator'));
    m.send({ type: 'boot' }, 0);
    m.send({ type: 'crash' }, 5);
    expect(answer(m.send(request('Heartbeat'), 10))).toEqual({ rpc: 'HeartbeatResponse', error: 'NONE' });
    expect(answer(m.send(request('JoinGroup', { memberId: '' }), 11))).toEqual({
      rpc: 'JoinGroupResponse',
      error: 'COORDINATOR_LOAD_IN_PROGRESS',
    });
  });
});
