/**
 * What a counterexample broke, in the reader's language. English is the search's own sentence
 * (brokeText); Korean names the layer and the status as the verdict table does (LAYER_NAMES,
 * STATUS_NAMES) — brokeText's Korean showed the status's English id ("more-than-once").
 */
import { brokeText, type Counterexample } from '../../sim';
import { LAYER_NAMES, STATUS_NAMES } from '../../sim/views';
import type { Language } from '../../store/simStore';

export function violationText(ce: Counterexample, language: Language): string {
  if (language !== 'ko') return brokeText(ce, language);
  const v = ce.violation;
  const layer = LAYER_NAMES[v.layer]?.[1] ?? v.layer;
  const status = STATUS_NAMES[v.status]?.[1] ?? v.status;
  return `${layer}${v.subject ? ` (${v.subject})` : ''}: ${status}${v.eventIds.length ? ` — ${v.eventIds.join(', ')}` : ''}`;
}
