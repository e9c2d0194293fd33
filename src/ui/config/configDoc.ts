/** A config key's documentation line in the reader's language (the engine's English `doc` otherwise). */
import type { ConfigKey } from '../../sim';
import type { Language } from '../../store/simStore';
import type { SectionKind } from './configModel';
import { type ConfigTable, DOCS_KO, SIMULATION_NOTES_KO } from './docsKo';

/** The spec table a section's keys come from: the producer inside an application is a producer. */
const TABLE: Readonly<Record<SectionKind, ConfigTable>> = {
  producer: 'producer',
  'app-producer': 'producer',
  consumer: 'consumer',
  streams: 'streams',
  cluster: 'cluster',
  topic: 'topic',
};

export function configDoc(kind: SectionKind, spec: ConfigKey, language: Language): string {
  if (language === 'ko') return DOCS_KO[TABLE[kind]][spec.name] ?? spec.doc;
  return spec.doc;
}

/** The simulator's note on a key, in the reader's language (English when there is no Korean). */
export function simulationNote(spec: ConfigKey, language: Language): string | undefined {
  if (spec.simulation === undefined) return undefined;
  return language === 'ko' ? (SIMULATION_NOTES_KO[spec.simulation] ?? spec.simulation) : spec.simulation;
}
