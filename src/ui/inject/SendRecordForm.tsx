/**
 * The application sends one new record now.
 *
 * Props: `clientId` — a producer application of the scenario; `onReport` (optional).
 */
import { type FormEvent, useId, useState } from 'react';
import { sendNewRecord } from '../../sim';
import { useSim } from '../../store/useSim';
import type { InjectionReport } from './applyEdit';
import { Refusal } from './Refusal';
import { useInjectStrings } from './strings';
import { useInjection } from './useInjection';

export interface SendRecordFormProps {
  readonly clientId: string;
  readonly onReport?: InjectionReport;
}

export function SendRecordForm({ clientId, onReport }: SendRecordFormProps) {
  const t = useInjectStrings();
  const topics = (useSim((s) => s.scenario)?.topics ?? []).map((x) => x.name);
  const [topic, setTopic] = useState<string>('');
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');
  const [eventId, setEventId] = useState('');
  const { run, refusal } = useInjection(onReport);
  const id = useId();
  const chosen = topics.includes(topic) ? topic : (topics[0] ?? '');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    run((s, at) =>
      sendNewRecord(s, {
        ...at,
        client: clientId,
        record: { topic: chosen, key: key === '' ? null : key, value, ...(eventId ? { eventId } : {}) },
      }),
    );
  };
  return (
    <form className="send-record" onSubmit={submit} aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>{t.sendHeading}</h3>
      <p className="hint">{t.sendHint}</p>
      <label htmlFor={`${id}-topic`}>{t.topic}</label>{' '}
      <select id={`${id}-topic`} value={chosen} onChange={(e) => setTopic(e.currentTarget.value)}>
        {topics.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>{' '}
      <label htmlFor={`${id}-key`}>{t.key}</label>{' '}
      <input id={`${id}-key`} value={key} maxLength={200} onChange={(e) => setKey(e.currentTarget.value)} />{' '}
      <label htmlFor={`${id}-value`}>{t.value}</label>{' '}
      <input id={`${id}-value`} value={value} maxLength={200} onChange={(e) => setValue(e.currentTarget.value)} />{' '}
      <label htmlFor={`${id}-event`}>{t.eventId}</label>{' '}
      <input id={`${id}-event`} value={eventId} maxLength={200} onChange={(e) => setEventId(e.currentTarget.value)} />{' '}
      <button type="submit">{t.send}</button>
      <Refusal text={refusal} />
    </form>
  );
}
