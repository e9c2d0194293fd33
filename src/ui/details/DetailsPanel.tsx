/**
 * Details of the selection — an actor, a record, a message (envelope) or a step — and, with nothing
 * selected, of the step on screen. Below them, in the "inject-actions" region, the failure-injection
 * menus for the selection (src/ui/inject/**).
 */

import { lazy, type ReactNode, Suspense, useId, useMemo, useRef } from 'react';
import { type Fact, groupDigits, partitionRows, recordAddress, type SimView, stateValueToString, type Trace } from '../../sim/views';
import { type Language, type Selection, simStore } from '../../store/simStore';
import { useSim } from '../../store/useSim';
import { actorFields, roleName, roleOf } from '../actors/fields';
import { useReplicationByKey } from '../actors/useReplicationByKey';
import { type Strings, useStrings } from '../i18n';
import { Sheet } from '../layout/Sheet';
import { panelStore, usePanels } from '../panels';
import { StepLink } from '../StepLink';
import { eventWords, shownState, shownTransition } from '../stateNames';
import { useNarrator } from '../useNarrator';
import { useThrottled } from '../useThrottled';
import { GroupDescribeSection } from './GroupDescribeSection';
import { HangingTransactionsSection } from './HangingTransactionsSection';
import { MetricsSection } from './MetricsSection';
import { ProducerStateSection } from './ProducerStateSection';
import { TopicDescribeSection } from './TopicDescribeSection';
import { TransactionDescribeSection } from './TransactionDescribeSection';
import { TransactionListSection } from './TransactionListSection';
import { useRevealOnSelect } from './useRevealOnSelect';

// failure injection loads after the first paint, to keep the initial JavaScript small
const InjectPanel = lazy(() => import('../inject').then((m) => ({ default: m.InjectPanel })));
// the selected actor's statechart, drawn from its machine (src/ui/statechart/**), loads on demand too
const StatechartView = lazy(() => import('../statechart/StatechartView').then((m) => ({ default: m.StatechartView })));

/** One step's narration (the narration module loads after the first paint). */
function StepSentence({ trace, index, language }: { readonly trace: Trace; readonly index: number; readonly language: Language }) {
  const narrator = useNarrator();
  return <>{narrator ? narrator.narrate(trace, index, language) : '…'}</>;
}

function show(v: unknown): string {
  if (typeof v === 'string') return v;
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : s.length > 160 ? `${s.slice(0, 160)}…` : s;
}

/**
 * Label and value pairs. `raw` (for all, or a row's third element) marks values that are data as the
 * engine holds it — identifiers, JSON, the engine's event names — not words to translate.
 */
function Pairs({ rows, raw }: { readonly rows: readonly (readonly [string, string, boolean?, string?])[]; readonly raw?: boolean }) {
  return (
    <dl className="fields" translate={raw ? 'no' : undefined}>
      {rows.map(([k, v, data, exact]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd translate={data ? 'no' : undefined}>
            {v}
            {/* the model's exact name (a statechart path, an event), under the words that stand for it */}
            {exact !== undefined && exact !== v && (
              <code className="exact-name" translate="no" data-testid="exact-name">
                {exact}
              </code>
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** An event row: the model's own event in words with its name under them; an RPC or a Kafka API call as it is. */
function eventRow(label: string, stepKind: string, event: string, language: Language): readonly [string, string, boolean?, string?] {
  const words = eventWords(stepKind, event, language);
  return words === null ? [label, event, true] : [label, words, false, event];
}

/** A state row: Kafka's name or the model's state in words (stateNames.ts), with the exact path under it. */
function stateRow(label: string, kind: string, state: string, language: Language): readonly [string, string, boolean, string] {
  return [label, shownState(kind, state, language), false, state];
}

/** A fault label, or a line of a step's faults, in the page's language (the narration module translates, once it has loaded). */
function useFaultText(trace: Trace, language: Language): (label: string) => string {
  const narrator = useNarrator();
  return (label) => (narrator ? narrator.stepFaultText(trace, label, language) : label);
}

/** What the details of a step, an actor or an envelope are drawn from. */
interface RunDetailsProps {
  readonly trace: Trace;
  readonly t: Strings;
  readonly language: Language;
}

function StepDetails({ trace, index, t, language }: RunDetailsProps & { readonly index: number }) {
  const s = trace.steps.at(index);
  const faultText = useFaultText(trace, language);
  if (!s) return null;
  const actorKind = trace.built.specs.find((sp) => sp.id === s.actor)?.kind ?? '';
  const moved = shownTransition(actorKind, s.before, s.after, language);
  return (
    <div className="details-step" data-step-index={index}>
      <h3>
        {t.selectedStep} <StepLink index={index} /> · {groupDigits(s.t)} ms
      </h3>
      <p lang={language}>
        <StepSentence trace={trace} index={index} language={language} />
      </p>
      <Pairs
        rows={[
          [t.fieldActor, s.actor],
          [t.fieldKind, t.stepKinds[s.kind] ?? s.kind],
          s.kind === 'fault'
            ? [t.fieldEvent, faultText(s.label)]
            : s.kind === 'boot'
              ? [t.fieldEvent, t.stepKinds.boot ?? s.label]
              : eventRow(t.fieldEvent, s.kind, s.label, language),
          s.before === s.after
            ? stateRow(t.fieldState, actorKind, s.after, language)
            : [t.fieldState, `${moved.before} → ${moved.after}`, false, `${s.before} → ${s.after}`],
          ...(s.sent.length ? [[t.fieldSent, s.sent.map((id) => `${trace.envelopes.at(id)?.rpc ?? '?'} #${id}`).join(', ')] as const] : []),
        ]}
      />
      {s.faults.length > 0 && (
        <>
          <h4>{t.faults}</h4>
          <ul className="plain-list">
            {s.faults.map((f) => (
              <li key={f}>{faultText(f)}</li>
            ))}
          </ul>
        </>
      )}
      {s.facts.length > 0 && (
        <>
          <h4>{t.facts}</h4>
          {/* the facts as the engine records them (kind and fields): data, not sentences */}
          <ul className="plain-list facts" translate="no">
            {(s.facts as readonly Fact[]).map((f, k) => (
              // facts have no identity of their own; their order within a step is fixed
              // biome-ignore lint/suspicious/noArrayIndexKey: see above
              <li key={k}>
                <code>{f.kind}</code> {show({ ...f, kind: undefined })}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

function ActorDetails({
  trace,
  view,
  id,
  t,
  language,
  step,
}: RunDetailsProps & { readonly view: SimView; readonly id: string; readonly step: number }) {
  const snap = view.actors.get(id);
  const kind = trace.built.specs.find((s) => s.id === id)?.kind ?? '';
  // a process picked as a whole (the injector's process list selects `billing`, whose actors are
  // `billing.app` and `billing.consumer`): each of its actors' states, named by role — never a dash
  const process = snap ? undefined : trace.built.processes.find((p) => p.id === id);
  const kindOf = (actor: string) => trace.built.specs.find((s) => s.id === actor)?.kind ?? '';
  const states: (readonly [string, string, boolean?, string?])[] = snap
    ? [stateRow(t.fieldState, kind, stateValueToString(snap.value), language)]
    : (process?.actors ?? []).flatMap((a) => {
        const s = view.actors.get(a);
        const label = t.fieldStateOf(roleName(roleOf(a, process?.kind ?? ''), language));
        return s ? [stateRow(label, kindOf(a), stateValueToString(s.value), language)] : [];
      });
  const narrator = useNarrator();
  const partitions = useReplicationByKey(view);
  const recent = useMemo(() => {
    const out: number[] = [];
    for (let i = Math.min(step, trace.steps.length) - 1; i >= 0 && out.length < 5; i--) if (trace.steps.at(i)?.actor === id) out.push(i);
    return out;
  }, [trace, id, step]);
  return (
    <div className="details-actor">
      <h3>
        {t.actor}: {id}
      </h3>
      <Pairs
        rows={[
          ...states,
          ...actorFields(
            kind,
            snap?.context,
            language,
            (text) => (narrator ? narrator.translateNote(text, language) : text),
            { actorId: id, partitions },
            snap ? stateValueToString(snap.value) : '',
          ).map((f) => [f.label, f.value] as const),
        ]}
      />
      <MetricsSection trace={trace} view={view} id={id} />
      <GroupDescribeSection trace={trace} view={view} id={id} />
      <TransactionDescribeSection trace={trace} view={view} id={id} />
      <TransactionListSection view={view} id={id} />
      <Suspense fallback={null}>
        <StatechartView actorId={id} />
      </Suspense>
      {recent.length > 0 && (
        <>
          <h4>{t.recentSteps}</h4>
          <ul className="plain-list">
            {recent.map((i) => (
              <li key={i}>
                <StepLink index={i} /> <StepSentence trace={trace} index={i} language={language} />
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

function EnvelopeDetails({ trace, id, t, language }: RunDetailsProps & { readonly id: number }) {
  const e = trace.envelopes.at(id);
  const faultText = useFaultText(trace, language);
  if (!e) return null;
  return (
    <div className="details-envelope">
      <h3>
        {t.envelope}: {e.rpc} #{e.id}
      </h3>
      <Pairs
        rows={[
          [t.fieldRoute, `${e.from} → ${e.to}`],
          [t.sent, `${groupDigits(e.sentAt)} ms (#${e.sentStep + 1})`],
          [t.delivered, e.deliveredStep !== null ? `#${e.deliveredStep + 1}` : t.notYet],
          [t.fate, t.fates[e.fate] ?? e.fate],
          ...(e.fault ? [[t.fieldFault, faultText(e.fault)] as const] : []),
          ...(e.inReplyTo !== null ? [[t.fieldInReplyTo, `#${e.inReplyTo}`] as const] : []),
        ]}
      />
      <h4>{t.payload}</h4>
      {/* the request's fields as Kafka names them */}
      <Pairs raw rows={Object.entries(e.payload).map(([k, v]) => [k, show(v)] as const)} />
      {e.deliveredStep !== null && (
        <p lang={language}>
          <StepLink index={e.deliveredStep} /> <StepSentence trace={trace} index={e.deliveredStep} language={language} />
        </p>
      )}
    </div>
  );
}

function RecordDetails({
  trace,
  view,
  sel,
  t,
}: {
  readonly trace: Trace;
  readonly view: SimView;
  readonly sel: Extract<Selection, { kind: 'record' }>;
  readonly t: Strings;
}) {
  const row = partitionRows(view.actors).find((p) => p.topic === sel.topic && p.partition === sel.partition);
  const r = row?.records.find((x) => x.offset === sel.offset);
  const heading = (
    <h3>
      {t.record}: {recordAddress(sel.topic, sel.partition, sel.offset)}
    </h3>
  );
  if (!r) return heading;
  return (
    <div className="details-record">
      {heading}
      <Pairs
        rows={[
          ['key', r.key ?? 'null'],
          ['value', r.value ?? 'null'],
          [
            'headers',
            Object.entries(r.headers)
              .map(([k, v]) => `${k}=${v}`)
              .join(', ') || '—',
          ],
          ['producerId / epoch', r.producerId < 0 ? '—' : `${r.producerId} / ${r.producerEpoch}`],
          ['sequence', r.sequence < 0 ? '—' : String(r.sequence)],
          ['isTransactional', String(r.transactional)],
          [t.fieldControl, r.control ?? '—'],
          [t.fieldTransaction, r.txnOutcome ? (t.outcomes[r.txnOutcome] ?? r.txnOutcome) : '—'],
        ]}
      />
      <ProducerStateSection view={view} topic={sel.topic} partition={sel.partition} />
      <HangingTransactionsSection view={view} topic={sel.topic} partition={sel.partition} />
      <TopicDescribeSection trace={trace} view={view} topic={sel.topic} />
    </div>
  );
}

export function DetailsPanel() {
  const titleId = useId();
  const t = useStrings();
  const trace = useSim((s) => s.trace);
  const liveView = useSim((s) => s.view);
  const playing = useSim((s) => s.playing);
  // while playing, a few updates a second (the details of every frame made long tasks)
  const view = useThrottled(liveView, 250, playing);
  const step = view?.step ?? 0;
  const selection = useSim((s) => s.selection);
  const language = useSim((s) => s.language);
  const injectSheet = usePanels((s) => s.injectSheet);
  const panel = useRef<HTMLElement>(null);
  useRevealOnSelect(panel, selection);
  if (!trace || !view) return null;
  let body: ReactNode;
  if (!selection)
    body =
      step > 0 ? <StepDetails trace={trace} index={step - 1} t={t} language={language} /> : <p className="muted">{t.nothingSelected}</p>;
  else if (selection.kind === 'step') body = <StepDetails trace={trace} index={selection.index} t={t} language={language} />;
  else if (selection.kind === 'actor')
    body = <ActorDetails trace={trace} view={view} id={selection.id} t={t} language={language} step={step} />;
  else if (selection.kind === 'envelope') body = <EnvelopeDetails trace={trace} id={selection.id} t={t} language={language} />;
  else body = <RecordDetails trace={trace} view={view} sel={selection} t={t} />;
  return (
    <section
      ref={panel}
      className="details-panel"
      aria-labelledby={titleId}
      data-testid="details"
      data-selection={selection?.kind ?? 'none'}
    >
      <h2 id={titleId}>
        {t.details}
        {selection && (
          <button type="button" className="clear-selection" onClick={() => simStore.getState().select(null)} aria-label={t.close}>
            ×
          </button>
        )}
      </h2>
      {body}
      {/* [ui-inject] failure injection for the selection (an envelope, a process, a record); a bottom sheet at phone width */}
      <div className="inject-slot" data-slot="inject-actions" data-target-kind={selection?.kind ?? ''}>
        <section aria-label={t.injectTitle} className="inject">
          <Suspense fallback={<p className="muted">…</p>}>
            <InjectPanel />
          </Suspense>
        </section>
      </div>
      <p className="phone-only inject-open">
        <button type="button" aria-haspopup="dialog" data-testid="open-inject" onClick={() => panelStore.getState().setInjectSheet(true)}>
          {t.injectTitle}…
        </button>{' '}
        <span className="muted">{t.injectOnPhone}</span>
      </p>
      {injectSheet && (
        <Sheet title={t.injectTitle} closeLabel={t.close} onClose={() => panelStore.getState().setInjectSheet(false)} testId="inject-sheet">
          <Suspense fallback={<p className="muted">…</p>}>
            {/* the sheet's own heading names it */}
            <InjectPanel heading={false} />
          </Suspense>
        </Sheet>
      )}
    </section>
  );
}
