/**
 * What the verdict needs to know about a scenario besides the trace: who writes to which topic (the
 * producer applications' scripts, consume-transform-produce applications, Kafka Streams, outbox
 * relays), which applications process which topics in which group and isolation level and write to
 * which sink, the event ids the scripts send, and which processes are down or stopped at the step.
 */
import type { TopicWriter, VerdictApp, VerdictConsumer } from '../checks/verdict';
import type { SimView, Trace } from '../run';
import type { Scenario } from '../scenario/schema';
import { changelogTopic, repartitionTopic } from '../streams/streamsTopology';

export function writersOf(s: Scenario): TopicWriter[] {
  const out: TopicWriter[] = [];
  const add = (w: TopicWriter) => {
    if (!out.some((x) => x.topic === w.topic && x.writer === w.writer)) out.push(w);
  };
  for (const c of s.clients) {
    if (c.type === 'producer') for (const op of c.script) if (op.op === 'send') add({ topic: op.topic, writer: c.id, kind: 'producer' });
    if (c.type === 'consumer' && c.processing?.outputTopic)
      add({ topic: c.processing.outputTopic, writer: c.id, kind: 'app', inputs: c.topics });
    if (c.type === 'streams') add({ topic: c.outputTopic, writer: c.id, kind: 'app', inputs: [c.inputTopic] });
  }
  for (const k of s.sinks ?? [])
    if (k.type === 'outbox' && k.topic) add({ topic: k.topic, writer: `${k.id}-relay`, kind: 'relay', sink: k.id });
  return out;
}

/** The event ids each producer script sends (a `count` send with "{i}" in its event_id expanded). */
export function intendedSendsOf(s: Scenario): { client: string; topic: string; eventId: string }[] {
  const out: { client: string; topic: string; eventId: string }[] = [];
  for (const c of s.clients) {
    if (c.type !== 'producer') continue;
    for (const op of c.script) {
      if (op.op !== 'send') continue;
      const template = op.headers?.event_id;
      if (template === undefined) continue;
      const n = template.includes('{i}') ? (op.count ?? 1) : 1;
      for (let i = 0; i < n; i++) out.push({ client: c.id, topic: op.topic, eventId: template.replaceAll('{i}', String(i)) });
    }
  }
  return out;
}

export function verdictConsumersOf(trace: Pick<Trace, 'scenario' | 'resolved'>): VerdictConsumer[] {
  return trace.scenario.clients
    .filter((c) => c.type === 'consumer')
    .map((c) => {
      const config = trace.resolved.consumers[c.id];
      return {
        id: c.id,
        groupId: config?.['group.id'] ?? null,
        isolationLevel: config?.['isolation.level'] ?? 'read_uncommitted',
        topics: c.type === 'consumer' ? c.topics : [],
        autoOffsetReset: config?.['auto.offset.reset'] ?? 'latest',
      };
    });
}

export function verdictAppsOf(trace: Pick<Trace, 'scenario' | 'resolved'>): VerdictApp[] {
  const out: VerdictApp[] = [];
  for (const c of trace.scenario.clients) {
    if (c.type === 'consumer') {
      const config = trace.resolved.consumers[c.id];
      out.push({
        id: c.id,
        groupId: config?.['group.id'] ?? null,
        isolationLevel: config?.['isolation.level'] ?? 'read_uncommitted',
        topics: c.topics,
        autoOffsetReset: config?.['auto.offset.reset'] ?? 'latest',
        sink: c.processing?.sink ?? null,
      });
    } else if (c.type === 'streams') {
      const config = trace.resolved.streams[c.id];
      const applicationId = config?.['application.id'] ?? c.id;
      out.push({
        id: c.id,
        groupId: applicationId,
        isolationLevel: config?.['processing.guarantee'] === 'exactly_once_v2' ? 'read_committed' : 'read_uncommitted',
        topics: [c.inputTopic],
        autoOffsetReset: 'earliest',
        sink: null,
        store: {
          changelogTopic: changelogTopic(applicationId),
          countedTopic: c.groupBy ? repartitionTopic(applicationId) : c.inputTopic,
          repartitioned: Boolean(c.groupBy),
        },
      });
    }
  }
  return out;
}

/** An application that stopped for good: `stopped`, or a stream thread already shutting down (its clients being closed). */
function stoppedApp(value: unknown): boolean {
  return value === 'stopped' || (typeof value === 'string' && value.startsWith('shuttingDown'));
}

/** Clients and relays that are down, or whose application stopped for good, at the step described. */
export function stoppedAt(trace: Pick<Trace, 'built'>, view: SimView): Record<string, 'down' | 'stopped'> {
  const out: Record<string, 'down' | 'stopped'> = {};
  for (const p of trace.built.processes) {
    if (p.kind === 'broker' || p.kind === 'txn-coordinator' || p.kind === 'group-coordinator') continue;
    if (view.processes.get(p.id)?.down) out[p.id] = 'down';
    else if (stoppedApp(view.actors.get(`${p.id}.app`)?.value)) out[p.id] = 'stopped';
  }
  return out;
}
