/**
 * A broker answers Metadata from its metadata cache (KRaftMetadataCache.getPartitionMetadata): per
 * partition its leader, leader epoch, replicas and ISR; an offline partition (no leader) has
 * LEADER_NOT_AVAILABLE and leader null. A partition with one replica reads from the cluster's
 * static metadata (its leader never moves). The broker list is the alive brokers only
 * (KRaftMetadataCache.getAliveBrokerNodes leaves out the brokers the controller has fenced, as this
 * broker's image has them), so a client's leastLoadedNode never picks a fenced one.
 */
import type { Out, PendingRequest } from '../actors/out';
import type { MetadataRequest, MetadataResponse, PartitionMetadata } from '../protocol/replicationMessages';
import { topicPartitionKey } from '../protocol/topicPartition';
import type { BrokerContext } from './broker.machine';

export function metadataResponse(ctx: BrokerContext, req: MetadataRequest): MetadataResponse {
  const meta = ctx.meta;
  const names = req.topics.length ? req.topics : Object.keys(meta.topics);
  const topics = names.flatMap((name) => {
    const t = meta.topics[name];
    if (!t) return [];
    const partitions: PartitionMetadata[] = Array.from({ length: t.partitions }, (_, p) => {
      const reg = ctx.replication?.registrations[topicPartitionKey(name, p)];
      if (reg)
        return {
          partition: p,
          error: reg.leader === null ? 'LEADER_NOT_AVAILABLE' : 'NONE',
          leader: reg.leader,
          leaderEpoch: reg.leaderEpoch,
          replicas: reg.replicas,
          isr: reg.isr,
        };
      const leader = t.leaders[p] ?? null;
      const replicas = t.replicas?.[p] ?? (leader ? [leader] : []);
      return { partition: p, error: 'NONE', leader, leaderEpoch: t.leaderEpochs?.[p] ?? 0, replicas, isr: replicas };
    });
    return [{ name, partitions }];
  });
  const fenced = ctx.replication?.fencedBrokers ?? [];
  const brokers = fenced.length === 0 ? meta.brokers : meta.brokers.filter((b) => !fenced.includes(b));
  return { brokers, topics };
}

export function onMetadata(ctx: BrokerContext, request: PendingRequest, req: MetadataRequest, out: Out): BrokerContext {
  out.reply(request, 'MetadataResponse', metadataResponse(ctx, req), { background: true });
  return ctx;
}
