/**
 * The embed's postMessage protocol (docs/embedding.md). Every message the embed sends carries
 * `source: 'eos-lab'`; every command it accepts is checked against these schemas first.
 *
 * Out: ready, resize (harmless, may go to '*'); step, loaded, error (only to the parent's origin).
 * In:  play, pause, seek { step }, load { scenario } | { link }.
 */
import * as v from 'valibot';

export const MESSAGE_SOURCE = 'eos-lab';

const step = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(3_000_000));

export const InboundSchema = v.variant('type', [
  v.object({ type: v.literal('play') }),
  v.object({ type: v.literal('pause') }),
  v.object({ type: v.literal('seek'), step }),
  v.object({
    type: v.literal('load'),
    /** A scenario document (validated like any scenario) … */
    scenario: v.optional(v.unknown()),
    /** … or a share link / preset id. */
    link: v.optional(v.pipe(v.string(), v.maxLength(100_000))),
    step: v.optional(step),
  }),
]);

export type Inbound = v.InferOutput<typeof InboundSchema>;

export const INBOUND_TYPES = ['play', 'pause', 'seek', 'load'] as const;

export type Outbound =
  | { source: typeof MESSAGE_SOURCE; type: 'ready'; step: number; steps: number; title: string }
  | { source: typeof MESSAGE_SOURCE; type: 'resize'; height: number }
  | { source: typeof MESSAGE_SOURCE; type: 'step'; step: number; steps: number; playing: boolean }
  | { source: typeof MESSAGE_SOURCE; type: 'loaded'; steps: number; title: string }
  | { source: typeof MESSAGE_SOURCE; type: 'error'; about: string; message: string };

export type ParsedInbound =
  /** Not addressed to us (no known `type`): ignore silently, never answer. */
  { kind: 'ignore' } | { kind: 'invalid'; about: string; message: string } | { kind: 'command'; command: Inbound };

/** Classifies an inbound message's data. Never throws, whatever the data. */
export function parseInbound(data: unknown): ParsedInbound {
  if (typeof data !== 'object' || data === null) return { kind: 'ignore' };
  const type = (data as { type?: unknown }).type;
  if (typeof type !== 'string' || !(INBOUND_TYPES as readonly string[]).includes(type)) return { kind: 'ignore' };
  const r = v.safeParse(InboundSchema, data);
  if (!r.success) {
    const issue = r.issues[0];
    const path = (issue?.path ?? []).map((p) => String(p.key)).join('.');
    return { kind: 'invalid', about: type, message: `${type}: ${path ? `${path}: ` : ''}${issue?.message ?? 'invalid message'}` };
  }
  const c = r.output;
  if (c.type === 'load' && (c.scenario === undefined) === (c.link === undefined))
    return {
      kind: 'invalid',
      about: 'load',
      message: 'load: give either scenario (an object) or link (a share link or preset id), not both',
    };
  return { kind: 'command', command: c };
}

/** The origin part of a URL, or null for anything that has no usable origin. */
export function originOf(url: string): string | null {
  try {
    const o = new URL(url).origin;
    return o && o !== 'null' ? o : null;
  } catch {
    return null;
  }
}
