/** A config key's documentation line in the reader's language (the engine's English `doc` otherwise). */
import type { ConfigKey } from '../../sim/config/configSpec';
import type { Language } from '../../store/simStore';
import type { SectionKind } from './configModel';
import { type ConfigTable, DOCS_KO } from './docsKo';

/** The spec table a section's keys come from: the producer inside an application is a producer. */
const TABLE: Readonly<Record<SectionKind, ConfigTable>> = {
  producer: 'producer',
  'app-producer': 'producer',
  consumer: 'consumer',
  cluster: 'cluster',
  topic: 'topic',
};

export function configDoc(kind: SectionKind, spec: ConfigKey, language: Language): string {
  if (language === 'ko') return DOCS_KO[TABLE[kind]][spec.name] ?? spec.doc;
  return spec.doc;
}
