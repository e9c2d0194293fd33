/** Requests sent by hand to the controller (controller.machine.ts, driven as pure functions), and the cluster it starts from. */
import type { ControllerContext } from '../../src/sim/controller/controller.machine';
import type { RpcEvent } from '../../src/sim/kernel/effects';
import type { BrokerHeartbeatRequest } from '../../src/sim/protocol/replicationMessages';

/** A BrokerHeartbeat from `brokerId`'s incarnation `brokerEpoch`, asking to shut down when `wantShutDown`. */
export const heartbeat = (brokerId: string, brokerEpoch: number, wantShutDown = false): RpcEvent<BrokerHeartbeatRequest> =>
  ({
    type: 'BrokerHeartbeat',
    from: brokerId,
    envelopeId: 1,
    now: 0,
    payload: { brokerId, brokerEpoch, ...(wantShutDown ? { wantShutDown: true } : {}) },
  }) as unknown as RpcEvent<BrokerHeartbeatRequest>;

/**
 * Three unfenced brokers b0–b2 in their first incarnation; b0 leads t-0 with everyone in sync, and
 * u-0 with its ISR b0 alone (its followers had left it). `more`: other partitions beside them.
 */
export function threeBrokers(more: ControllerContext['partitions'] = {}): ControllerContext {
  return {
    id: 'controller',
    brokers: { b0: { epoch: 0, fenced: false }, b1: { epoch: 0, fenced: false }, b2: { epoch: 0, fenced: false } },
    partitions: {
      't-0': {
        topic: 't',
        partition: 0,
        replicas: ['b0', 'b1', 'b2'],
        isr: ['b0', 'b1', 'b2'],
        leader: 'b0',
        leaderEpoch: 0,
        partitionEpoch: 0,
      },
      'u-0': { topic: 'u', partition: 0, replicas: ['b0', 'b1', 'b2'], isr: ['b0'], leader: 'b0', leaderEpoch: 0, partitionEpoch: 2 },
      ...more,
    },
    unclean: {},
    sessionTimeoutMs: 9000,
  };
}
