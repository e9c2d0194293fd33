/**
 * How narration names actors: "orders-service's producer", "the transaction coordinator",
 * "billing 컨슈머". Process ids are the scenario's ids; actor ids are "<process>.<role>".
 */
import type { Trace } from '../run';
import { josa, type Language } from './language';

export interface Namer {
  /** The actor as the subject or object of a sentence. */
  actor(id: string): string;
  /** A process (client, broker, coordinator, sink). */
  process(id: string): string;
  /** The client id behind an actor id ("billing.consumer" → "billing"). */
  client(id: string): string;
}

const ROLE_EN: Record<string, string> = {
  app: 'application',
  producer: 'producer',
  consumer: 'consumer',
  streams: 'Streams task',
  relay: 'CDC relay',
  restore: 'restore consumer',
};
const ROLE_KO: Record<string, string> = {
  app: '애플리케이션',
  producer: '프로듀서',
  consumer: '컨슈머',
  streams: 'Streams 태스크',
  relay: 'CDC 릴레이',
  restore: '복원 컨슈머',
};

export function namer(trace: Trace, language: Language): Namer {
  const sinkTypes = new Map((trace.scenario.sinks ?? []).map((k) => [k.id, k.type]));
  const kinds = new Map(trace.built.processes.map((p) => [p.id, p.kind]));
  const process = (id: string): string => {
    if (id === 'txn-coordinator') return language === 'ko' ? '트랜잭션 코디네이터' : 'the transaction coordinator';
    if (id === 'group-coordinator') return language === 'ko' ? '그룹 코디네이터' : 'the group coordinator';
    const sink = sinkTypes.get(id);
    if (sink === 'database') return language === 'ko' ? `데이터베이스 ${id}` : `the database ${id}`;
    if (sink === 'http-api') return language === 'ko' ? `외부 API ${id}` : `the API ${id}`;
    if (sink === 'outbox') return language === 'ko' ? `outbox ${id}` : `the outbox ${id}`;
    if (kinds.get(id) === 'broker' || id.startsWith('broker-')) return id;
    return id;
  };
  const actor = (id: string): string => {
    const dot = id.lastIndexOf('.');
    if (dot < 0) return process(id);
    const proc = id.slice(0, dot);
    const role = id.slice(dot + 1);
    if (language === 'ko') return `${proc} ${ROLE_KO[role] ?? role}`;
    const r = ROLE_EN[role] ?? role;
    return role === 'app' ? `the ${proc} application` : `${proc}'s ${r}`;
  };
  const client = (id: string): string => {
    const dot = id.lastIndexOf('.');
    return dot < 0 ? id : id.slice(0, dot);
  };
  return { actor, process, client };
}

/** Korean subject with its particle: "broker-0은". */
export function subjectKo(name: string): string {
  return josa(name, '은/는');
}

/** English possessive that never stacks ("billing's consumer" + "Fetch" → "the Fetch of billing's consumer"). */
export function poss(name: string, thing: string): string {
  return name.includes("'s ") ? `the ${thing} of ${name}` : `${name}'s ${thing}`;
}
