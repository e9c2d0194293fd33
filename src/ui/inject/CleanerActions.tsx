/**
 * Run the log cleaner now on a compacted topic (cleanup.policy=compact).
 *
 * Props: `onReport` (optional) — told the outcome of an injection.
 */
import { compactedTopics, runCleanerNow } from '../../sim';
import { useSim } from '../../store/useSim';
import { ActionRow } from './ActionRow';
import type { InjectionReport } from './applyEdit';
import { Refusal } from './Refusal';
import { useInjectStrings } from './strings';
import { useInjection } from './useInjection';

export interface CleanerActionsProps {
  readonly onReport?: InjectionReport;
}

export function CleanerActions({ onReport }: CleanerActionsProps) {
  const t = useInjectStrings();
  const trace = useSim((s) => s.trace);
  const { run, refusal } = useInjection(onReport);
  if (!trace) return null;
  const topics = compactedTopics(trace);
  return (
    <div className="cleaner-actions">
      <h3>{t.cleanerHeading}</h3>
      {topics.length === 0 ? (
        <p className="hint">{t.noCompacted}</p>
      ) : (
        topics.map((topic) => (
          <ActionRow
            key={topic}
            label={t.runCleaner(topic)}
            hint={t.cleanerHint}
            onClick={() => run((s, at) => runCleanerNow(s, { ...at, topic }))}
          />
        ))
      )}
      <Refusal text={refusal} />
    </div>
  );
}
