/**
 * Replication in the actors panel (issue [replication]), read from the page's replication rows
 * (src/sim/trace/replicationView, the engine's contract) rather than from machine contexts: for a
 * broker, each partition it holds a replica of — leader or follower, in or out of the ISR, its log
 * end offset and high watermark, the leader epoch; for the KRaft controller, the fenced brokers and
 * each partition's leader, leader epoch, ISR and replicas. The controller's fenced brokers are the
 * one thing not in the rows: they are read defensively from its context (a list of broker ids).
 */
import type { ReplicationRow } from '../../sim/views';
import type { Language } from '../../store/simStore';

export interface ReplicationField {
  readonly label: string;
  readonly value: string;
}

/** Replicated partitions by "topic-partition" key. */
export type ReplicationByKey = ReadonlyMap<string, ReplicationRow>;

const L = (language: Language, en: string, ko: string) => (language === 'ko' ? ko : en);
const byKey = (a: [string, unknown], b: [string, unknown]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
const list = (ids: readonly string[], lang: Language) => (ids.length ? ids.join(', ') : L(lang, 'empty', '비어 있음'));

/** One field per partition the broker holds a replica of. */
export function brokerReplicaFields(broker: string, partitions: ReplicationByKey, lang: Language): ReplicationField[] {
  const out: ReplicationField[] = [];
  for (const [key, repl] of [...partitions].sort(byKey)) {
    const r = repl.replicas.find((x) => x.broker === broker);
    if (!r) continue;
    const epoch = L(lang, `leader epoch ${repl.leaderEpoch}`, `leaderEpoch ${repl.leaderEpoch}`);
    const isr = r.inIsr ? L(lang, 'in ISR', 'ISR 안') : L(lang, 'out of ISR', 'ISR 밖');
    const role =
      repl.leader === broker
        ? `${L(lang, 'leader', '리더')} · ${epoch} · ISR ${list(repl.isr, lang)}`
        : repl.leader === null
          ? `${L(lang, 'no leader (offline, LEADER_NOT_AVAILABLE)', '리더 없음 (오프라인, LEADER_NOT_AVAILABLE)')} · ${epoch} · ${isr}`
          : `${L(lang, `follower of ${repl.leader}`, `${repl.leader}의 팔로워`)} · ${epoch} · ${isr}`;
    out.push({
      label: L(lang, `${key} replica`, `${key} 복제본`),
      value: `${role} · LEO ${r.logEndOffset} · HW ${r.highWatermark}`,
    });
  }
  return out;
}

/** The fenced brokers the controller's context lists (`fencedBrokers` or `fenced`: ids, a Set or a record of flags). */
export function fencedBrokersOf(context: unknown): string[] | null {
  if (!context || typeof context !== 'object') return null;
  const c = context as Record<string, unknown>;
  const raw = c.fencedBrokers ?? c.fenced;
  if (raw instanceof Set) return [...raw].filter((x): x is string => typeof x === 'string').sort();
  if (Array.isArray(raw)) return raw.filter((x): x is string => typeof x === 'string').sort();
  if (raw && typeof raw === 'object')
    return Object.entries(raw as Record<string, unknown>)
      .filter(([, v]) => v === true)
      .map(([k]) => k)
      .sort();
  return null;
}

/** The KRaft controller: fenced brokers, then per partition its leader, leader epoch, ISR and replicas. */
export function controllerFields(context: unknown, partitions: ReplicationByKey, lang: Language): ReplicationField[] {
  const out: ReplicationField[] = [];
  const fenced = fencedBrokersOf(context);
  if (fenced)
    out.push({ label: L(lang, 'fenced brokers', '펜싱된 브로커'), value: fenced.length ? fenced.join(', ') : L(lang, 'none', '없음') });
  for (const [key, repl] of [...partitions].sort(byKey)) {
    const leader =
      repl.leader === null
        ? L(lang, 'no leader (offline, LEADER_NOT_AVAILABLE)', '리더 없음 (오프라인, LEADER_NOT_AVAILABLE)')
        : L(lang, `leader ${repl.leader}`, `리더 ${repl.leader}`);
    out.push({
      label: key,
      value: `${leader} · ${L(lang, 'leader epoch', 'leaderEpoch')} ${repl.leaderEpoch} · ISR ${list(repl.isr, lang)} · ${L(lang, 'replicas', '복제본')} ${repl.replicas.map((r) => r.broker).join(', ')}${repl.uncleanLeaderElection ? ' · unclean.leader.election.enable=true' : ''}`,
    });
  }
  if (out.length === 0) out.push({ label: L(lang, 'partitions', '파티션'), value: L(lang, 'none', '없음') });
  return out;
}
