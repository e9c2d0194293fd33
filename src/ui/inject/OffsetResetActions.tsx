/**
 * An operator resets a consumer group's committed offsets now: kafka-consumer-groups.sh
 * --reset-offsets --execute with --to-earliest, --to-latest, --to-offset N or --shift-by N (the
 * scenario fault resetOffsets). Whether the tool resets or refuses is the run's to show.
 *
 * Props: `onReport` (optional) — told the outcome of an injection.
 */
import { useId, useState } from 'react';
import { offsetResetTargets, resetOffsetsNow } from '../../sim';
import { useSim } from '../../store/useSim';
import { ActionRow } from './ActionRow';
import type { InjectionReport } from './applyEdit';
import { Refusal } from './Refusal';
import { useInjectStrings } from './strings';
import { useInjection } from './useInjection';

export interface OffsetResetActionsProps {
  readonly onReport?: InjectionReport;
}

type Target = 'earliest' | 'latest' | 'offset' | 'shift';

export function OffsetResetActions({ onReport }: OffsetResetActionsProps) {
  const t = useInjectStrings();
  const trace = useSim((s) => s.trace);
  const { run, refusal } = useInjection(onReport);
  const [group, setGroup] = useState('');
  const [topic, setTopic] = useState('');
  const [target, setTarget] = useState<Target>('earliest');
  const [amount, setAmount] = useState(0);
  const ids = { group: useId(), topic: useId(), target: useId(), amount: useId() };
  if (!trace) return null;
  const groups = offsetResetTargets(trace);
  if (groups.length === 0) return null;
  const picked = groups.find((g) => g.group === group) ?? groups[0];
  if (!picked) return null;
  const pickedTopic = picked.topics.includes(topic) ? topic : (picked.topics[0] ?? '');
  const whole = Number.isInteger(amount) ? amount : 0;
  const how =
    target === 'earliest' || target === 'latest' ? { to: target } : target === 'offset' ? { to: Math.max(0, whole) } : { shiftBy: whole };
  return (
    <div className="offset-reset-actions" data-testid="offset-reset-actions">
      <h3>{t.resetHeading}</h3>
      <ActionRow
        label={t.resetRun}
        hint={t.offsetResetHint}
        disabled={!pickedTopic}
        onClick={() => run((s, at) => resetOffsetsNow(s, { ...at, group: picked.group, topic: pickedTopic, ...how }))}
      >
        <label htmlFor={ids.group}>{t.resetGroup}</label>{' '}
        <select id={ids.group} value={picked.group} onChange={(e) => setGroup(e.currentTarget.value)}>
          {groups.map((g) => (
            <option key={g.group} value={g.group}>
              {g.group}
            </option>
          ))}
        </select>{' '}
        <label htmlFor={ids.topic}>{t.resetTopic}</label>{' '}
        <select id={ids.topic} value={pickedTopic} onChange={(e) => setTopic(e.currentTarget.value)}>
          {picked.topics.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>{' '}
        <label htmlFor={ids.target}>{t.resetTo}</label>{' '}
        <select
          id={ids.target}
          data-testid="offset-reset-target"
          value={target}
          onChange={(e) => setTarget(e.currentTarget.value as Target)}
        >
          {(['earliest', 'latest', 'offset', 'shift'] as const).map((k) => (
            <option key={k} value={k}>
              {t.resetTargets[k]}
            </option>
          ))}
        </select>{' '}
        {(target === 'offset' || target === 'shift') && (
          <>
            <label htmlFor={ids.amount}>{t.resetAmount}</label>{' '}
            <input
              id={ids.amount}
              type="number"
              step={1}
              min={target === 'offset' ? 0 : undefined}
              value={Number.isFinite(amount) ? amount : ''}
              onChange={(e) => setAmount(e.currentTarget.valueAsNumber)}
            />
          </>
        )}
      </ActionRow>
      <Refusal text={refusal} />
    </div>
  );
}
