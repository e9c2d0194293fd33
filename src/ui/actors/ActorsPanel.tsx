/**
 * Every process of the run, grouped (brokers, coordinators, producers, consumers, systems outside
 * Kafka), each with its actors' XState state at the current step — and the transition, when the
 * step on screen changed it — and the fields that matter. Down and paused processes are marked.
 * Pressing an actor selects it.
 */
import { useId, useMemo } from 'react';
import type { ProcessKind } from '../../sim';
import { type SimView, stateValueToString, type Trace } from '../../sim/views';
import { type Language, simStore } from '../../store/simStore';
import { useSim } from '../../store/useSim';
import { type Strings, useStrings } from '../i18n';
import { panelStore } from '../panels';
import { shownState, shownTransition } from '../stateNames';
import { useNarrator } from '../useNarrator';
import { useThrottled } from '../useThrottled';
import { wrapAtUnderscores } from '../WrapAtUnderscores';
import { actorFields, roleName, roleOf } from './fields';
import { incarnationShown } from './incarnation';
import { useReplicationByKey } from './useReplicationByKey';

type Group = 'brokers' | 'coordinators' | 'producers' | 'consumers' | 'sinks';

// the KRaft controller (issue [replication]) sits with the brokers
const GROUP_OF: Record<ProcessKind, Group> & { readonly controller: Group } = {
  broker: 'brokers',
  controller: 'brokers',
  'txn-coordinator': 'coordinators',
  'group-coordinator': 'coordinators',
  producer: 'producers',
  consumer: 'consumers',
  streams: 'consumers',
  sink: 'sinks',
};
const GROUPS: readonly Group[] = ['producers', 'brokers', 'coordinators', 'consumers', 'sinks'];

/** The config editor's section for a process: its client's keys, or the cluster's for brokers and coordinators. */
function configSection(kind: ProcessKind, id: string): string {
  return kind === 'producer' || kind === 'consumer' || kind === 'streams' ? `client:${id}` : 'cluster';
}

function ActorRow({
  trace,
  view,
  actorId,
  processKind,
  language,
}: {
  readonly trace: Trace;
  readonly view: SimView;
  readonly actorId: string;
  readonly processKind: string;
  readonly language: Language;
}) {
  const selected = useSim((s) => s.selection?.kind === 'actor' && s.selection.id === actorId);
  // the step of the view shown (throttled while playing, see ActorsPanel)
  const step = view.step;
  const snap = view.actors.get(actorId);
  const kind = trace.built.specs.find((sp) => sp.id === actorId)?.kind ?? processKind;
  const state = snap ? stateValueToString(snap.value) : '—';
  const last = step > 0 ? trace.steps.at(step - 1) : undefined;
  const transition = last && last.actor === actorId && last.before !== last.after ? last : null;
  // Kafka's state names, or the model's in plain words (stateNames.ts); the exact paths in the tooltip
  const moved = transition ? shownTransition(kind, transition.before, transition.after, language) : null;
  const changed = moved ? `${moved.before} → ${moved.after}` : null;
  const exact = transition ? `${transition.before} → ${transition.after}` : state;
  const active = last?.actor === actorId;
  const narrator = useNarrator();
  const partitions = useReplicationByKey(view);
  const fields = actorFields(
    kind,
    snap?.context,
    language,
    (text) => (narrator ? narrator.translateNote(text, language) : text),
    { actorId, partitions },
    state,
  );
  const role = roleOf(actorId, processKind);
  return (
    <li className={`actor${active ? ' active' : ''}`} data-actor={actorId} data-state={state}>
      <button
        type="button"
        className="actor-head"
        aria-pressed={selected}
        onClick={() => simStore.getState().select(selected ? null : { kind: 'actor', id: actorId })}
      >
        <span className="actor-role">{actorId.includes('.') ? roleName(role, language) : actorId}</span>
        <span className={`state${changed ? ' changed' : ''}`} title={exact}>
          {wrapAtUnderscores(changed ?? (snap ? shownState(kind, state, language) : state))}
        </span>
      </button>
      {fields.length > 0 && (
        <dl className="fields">
          {fields.map((f) => (
            <div key={f.label}>
              <dt>{f.label}</dt>
              <dd>{wrapAtUnderscores(f.value)}</dd>
            </div>
          ))}
        </dl>
      )}
    </li>
  );
}

function ProcessCard({
  trace,
  view,
  processId,
  t,
  language,
}: {
  readonly trace: Trace;
  readonly view: SimView;
  readonly processId: string;
  readonly t: Strings;
  readonly language: Language;
}) {
  const info = trace.built.processes.find((p) => p.id === processId);
  if (!info) return null;
  const p = view.processes.get(processId);
  const status = p?.down ? 'down' : p?.paused ? 'paused' : 'up';
  return (
    <article className={`process ${status}`} data-process={processId} data-status={status} aria-labelledby={`process-${processId}`}>
      <div className="process-head">
        <h4 id={`process-${processId}`}>
          <span>{processId}</span>
          {status !== 'up' && <span className={`badge ${status}`}>{status === 'down' ? t.down : t.paused}</span>}
          {p && incarnationShown(p) > 1 && <span className="badge muted-badge">{t.restarted(incarnationShown(p))}</span>}
        </h4>
        {/* the keys of this client (or of the cluster, for a broker or coordinator), in the config drawer */}
        {info.kind !== 'sink' && (
          <button
            type="button"
            className="configure-button"
            aria-label={t.configure(processId)}
            aria-haspopup="dialog"
            data-testid={`configure-${processId}`}
            onClick={() => panelStore.getState().openConfig(configSection(info.kind, processId))}
          >
            {t.configureShort}
          </button>
        )}
      </div>
      <ul className="actors-list">
        {info.actors.map((a) => (
          <ActorRow key={a} trace={trace} view={view} actorId={a} processKind={info.kind} language={language} />
        ))}
      </ul>
    </article>
  );
}

export function ActorsPanel() {
  const titleId = useId();
  const t = useStrings();
  const trace = useSim((s) => s.trace);
  const liveView = useSim((s) => s.view);
  const playing = useSim((s) => s.playing);
  // while playing, a few updates a second: every actor's fields on every frame made long tasks
  const view = useThrottled(liveView, 250, playing);
  const language = useSim((s) => s.language);
  const groups = useMemo(() => {
    const by = new Map<Group, string[]>();
    for (const p of trace?.built.processes ?? []) {
      const g = GROUP_OF[p.kind] ?? 'sinks';
      by.set(g, [...(by.get(g) ?? []), p.id]);
    }
    return GROUPS.filter((g) => by.has(g)).map((g) => [g, by.get(g) as string[]] as const);
  }, [trace]);
  if (!trace || !view) return null;
  return (
    <section className="actors-panel" aria-labelledby={titleId}>
      <h2 id={titleId}>{t.actors}</h2>
      {groups.map(([g, ids]) => (
        <section key={g} className="actor-group" aria-labelledby={`group-${g}`}>
          <h3 id={`group-${g}`}>{t[g]}</h3>
          {ids.map((id) => (
            <ProcessCard key={id} trace={trace} view={view} processId={id} t={t} language={language} />
          ))}
        </section>
      ))}
    </section>
  );
}
