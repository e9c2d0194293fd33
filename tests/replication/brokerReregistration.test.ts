/**
 * A restarted broker registering again, tested on the controller directly
 * (ClusterControlManager.registerBroker, BrokerHeartbeatManager.hasValidSession, Kafka 4.0 without
 * ELR): a new incarnation is refused DUPLICATE_BROKER_REGISTRATION while the old one's session is
 * valid, and the session is not renewed by the refusal; once the session expired and the old
 * incarnation was fenced (it left the ISRs, its leaderships moved), the new one registers, is
 * unfenced, and the partitions without a leader elect again. Registering changes no ISR itself.
 */
import { describe, expect, it } from 'vitest';
import { Out } from '../../src/sim/actors/out';
import { fenceBroker, heartbeatError, onHeartbeat } from '../../src/sim/controller/controller.machine';
import { heartbeat, threeBrokers } from './controllerRequests';

const ctx = threeBrokers();
const kinds = (out: Out) => out.effects.map((e) => `${e.type}${'rpc' in e ? ` ${String(e.rpc)}` : ''}`);

describe('a restarted broker registers again only after its old incarnation is fenced', () => {
  it('a new broker epoch while the old session is valid: DUPLICATE_BROKER_REGISTRATION, nothing changes, the session deadline stays', () => {
    expect(heartbeatError(ctx, 'b0', 1)).toBe('DUPLICATE_BROKER_REGISTRATION');
    const out = new Out();
    const next = onHeartbeat(ctx, heartbeat('b0', 1), out);
    expect(next).toBe(ctx);
    expect(out.effects).toHaveLength(1);
    expect(out.effects[0]).toMatchObject({
      type: 'send',
      rpc: 'BrokerHeartbeatResponse',
      payload: { isFenced: true, error: 'DUPLICATE_BROKER_REGISTRATION' },
    });
  });

  it('the same broker epoch renews the session and changes nothing else', () => {
    expect(heartbeatError(ctx, 'b0', 0)).toBe('NONE');
    const out = new Out();
    expect(onHeartbeat(ctx, heartbeat('b0', 0), out)).toBe(ctx);
    expect(kinds(out)).toEqual(['send BrokerHeartbeatResponse', 'timer']);
  });

  it('after the session expired (handleBrokerFenced) the new incarnation registers and is unfenced; the lone ISR member is elected again', () => {
    const fenced = fenceBroker(ctx, 'b0', new Out());
    // fencing: b0 left t-0's ISR and its leadership moved; u-0 kept its last ISR member and went offline
    expect(fenced.partitions['t-0']).toMatchObject({ leader: 'b1', isr: ['b1', 'b2'], leaderEpoch: 1 });
    expect(fenced.partitions['u-0']).toMatchObject({ leader: null, isr: ['b0'], leaderEpoch: 1 });
    expect(heartbeatError(fenced, 'b0', 1)).toBe('NONE');
    const out = new Out();
    const next = onHeartbeat(fenced, heartbeat('b0', 1), out);
    expect(next.brokers.b0).toEqual({ epoch: 1, fenced: false });
    // registering changes no ISR (handleBrokerUncleanShutdown does nothing without ELR); the
    // leaderless partition elects its ISR member again (handleBrokerUnfenced), cleanly
    expect(next.partitions['t-0']).toEqual(fenced.partitions['t-0']);
    expect(next.partitions['u-0']).toMatchObject({ leader: 'b0', isr: ['b0'], leaderEpoch: 2 });
    expect(out.effects[0]).toMatchObject({ type: 'send', rpc: 'BrokerHeartbeatResponse', payload: { isFenced: false } });
    expect(out.effects.filter((e) => e.type === 'fact')).toMatchObject([
      { fact: { kind: 'leaderChange', leader: 'b0', election: 'clean' } },
    ]);
  });
});
