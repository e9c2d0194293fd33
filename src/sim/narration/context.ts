/** What every part of narration reads: the step, its envelope, the trace around it, the language. */
import type { EnvelopeRecord } from '../kernel/envelope';
import type { TraceStep } from '../kernel/simulation';
import type { Trace } from '../run';
import type { Language } from './language';
import type { Namer } from './names';
import type { TraceIndex } from './traceIndex';

export interface NarrationContext {
  readonly trace: Trace;
  readonly step: TraceStep;
  readonly lang: Language;
  readonly names: Namer;
  readonly index: TraceIndex;
  /** The envelope this step delivered (or lost), if any. */
  readonly envelope: EnvelopeRecord | null;
  /** Error codes already explained in this sentence (each is explained once). */
  readonly explained: Set<string>;
}

/** The processing mode of a consumer client, if the scenario gives one. */
export function processingMode(ctx: NarrationContext, clientId: string): string | null {
  const c = ctx.trace.scenario.clients.find((x) => x.id === clientId);
  if (!c || c.type !== 'consumer') return null;
  return c.processing?.mode ?? (ctx.trace.resolved.consumers[clientId]?.['enable.auto.commit'] ? 'auto-commit' : 'at-least-once');
}

/** The kind of process behind an id (broker, producer, consumer, sink …). */
export function processKind(ctx: NarrationContext, processId: string): string | null {
  return ctx.trace.built.processes.find((p) => p.id === processId)?.kind ?? null;
}

/** The configuration an actor was built with (its ActorSpec input), when it has one. */
export function actorConfig(ctx: NarrationContext, actorId: string): Readonly<Record<string, unknown>> | null {
  const input = ctx.trace.built.specs.find((s) => s.id === actorId)?.input as { config?: Record<string, unknown> } | undefined;
  return input?.config ?? null;
}
