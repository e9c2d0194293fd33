/** The view's replicated partitions by "topic-partition" key (empty without a KRaft controller). */
import { useMemo } from 'react';
import type { ReplicationRow, SimView } from '../../sim/views';
import { replicationFromRows } from '../timeline/replicationSource';
import type { ReplicationByKey } from './replicationFields';

export function replicationByKey(view: SimView): ReplicationByKey {
  const out = new Map<string, ReplicationRow>();
  for (const [key, p] of replicationFromRows(view.actors)) out.set(key, p.replication);
  return out;
}

export function useReplicationByKey(view: SimView): ReplicationByKey {
  return useMemo(() => replicationByKey(view), [view]);
}
