/** Requests sent by hand to the controller (controller.machine.ts, driven as pure functions). */
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
