/**
 * When a broker accepts connections (BrokerServer.startup, read on the trunk of October 2024): a
 * starting broker waits for the controller to acknowledge it caught up with the metadata log
 * (`lifecycleManager.initialCatchUpFuture`), for its first metadata publish, and then for the
 * controller to unfence it (`lifecycleManager.setReadyToUnfence()`, which returns
 * `initialUnfenceFuture`: completed by the first heartbeat answer with isFenced false) — and only
 * then calls `socketServer.enableRequestProcessing`, which starts the data-plane acceptors
 * (`Acceptor.start`: with a fixed port the server socket is opened there, "so that systems which
 * assume that the socket being open indicates readiness are not confused"). Until then nothing
 * listens on the broker's port: a client's connection attempt is refused, as to a broker that is down
 * (NetworkClient: the node is disconnected and backs off; its requests fail as disconnects, a
 * Produce's batches wait for the node to be ready again). The broker's own outgoing connections —
 * heartbeats to the controller, the metadata log it fetches — work meanwhile.
 *
 * In the model the heartbeat is the registration, and the answer without an error both registers
 * and unfences the restarted incarnation (broker/controlledShutdown.ts `onHeartbeatAnswer`); until
 * then its replication state is `registering`. The controller's PartitionChange stands for the
 * metadata log the broker fetches itself, so it is never refused. A broker of a cluster with no
 * replicated topic has no controller in the model and accepts connections from its start.
 */
import type { RpcName } from '../kernel/envelope';
import type { BrokerContext } from './broker.machine';

/** ActorSpec.refusesConnections for a broker: why it does not accept a connection for `rpc` yet, or null. */
export function brokerRefusesConnections(context: unknown, rpc: RpcName): string | null {
  if (rpc === 'PartitionChange') return null;
  const ctx = context as BrokerContext;
  return ctx.replication?.registering ? 'restarted and not yet unfenced by the controller, it has not opened its listeners' : null;
}
