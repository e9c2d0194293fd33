/** Words of the config editor in English and Korean; Kafka's keys and messages stay in Kafka's words. */

import { josa } from '../../sim/views';
import type { Language } from '../../store/simStore';
import { useSim } from '../../store/useSim';
import type { SectionKind } from './configModel';

export interface ConfigStrings {
  readonly heading: string;
  readonly intro: string;
  readonly pick: string;
  readonly section: (kind: SectionKind, name: string) => string;
  readonly key: string;
  readonly value: string;
  readonly kafkaDefault: string;
  readonly about: string;
  readonly setHere: string;
  readonly isDefault: string;
  readonly notApplied: string;
  readonly inEffect: (v: string) => string;
  readonly simulation: (text: string) => string;
  readonly reset: string;
  readonly resetLabel: (key: string) => string;
  readonly invalid: string;
  readonly otherErrors: string;
  readonly discard: string;
  readonly applied: (step: number) => string;
  /** The change made the run shorter than the step the page was on: it is at the new run's last step. */
  readonly appliedAtEnd: (step: number) => string;
  /** Said only where the page's language is not Kafka's: Kafka's own messages are not translated. */
  readonly messagesInEnglish: string;
  readonly filter: string;
  readonly noMatch: string;
  readonly open: string;
  readonly configureClient: (name: string) => string;
}

const en: ConfigStrings = {
  heading: 'Configuration',
  intro:
    "Kafka's keys with Kafka 4.x defaults. A valid change runs the scenario again from the start (configuration applies from time 0); an invalid one shows the error Kafka would raise and changes nothing.",
  pick: 'Configure',
  section: (kind, name) =>
    kind === 'producer'
      ? `${name} (producer)`
      : kind === 'consumer'
        ? `${name} (consumer)`
        : kind === 'app-producer'
          ? `${name}'s producer (inside the consumer application)`
          : kind === 'streams'
            ? `${name} (Kafka Streams)`
            : kind === 'cluster'
              ? 'Cluster (brokers and coordinators)'
              : `Topic ${name}`,
  key: 'Key',
  value: 'Value',
  kafkaDefault: 'Default',
  about: 'What it does',
  setHere: 'set by this scenario',
  isDefault: 'default',
  notApplied: 'changed, not applied',
  inEffect: (v) => `in effect: ${v}`,
  simulation: (text) => `Simulator: ${text}.`,
  reset: 'Use default',
  resetLabel: (key) => `Use the default for ${key}`,
  invalid: 'This combination cannot run; nothing was changed. Fix it or discard the change:',
  otherErrors: 'The change also breaks:',
  discard: 'Discard the change',
  applied: (step) => `Applied. The run was computed again with the new configuration; you are at step ${step}.`,
  appliedAtEnd: (step) =>
    `Applied. The run was computed again with the new configuration; it ends sooner, so you are at its last step, ${step}.`,
  messagesInEnglish: '',
  filter: 'Find a key',
  noMatch: 'No key of this section matches.',
  open: 'Configuration',
  configureClient: (name) => `Configure ${name}`,
};

const ko: ConfigStrings = {
  heading: '설정',
  intro:
    'Kafka의 설정 키와 Kafka 4.x 기본값입니다. 올바른 변경은 시나리오를 처음부터 다시 실행합니다(설정은 시간 0부터 적용). 잘못된 조합은 Kafka가 내는 오류를 보여 주고 아무것도 바꾸지 않습니다.',
  pick: '설정 대상',
  section: (kind, name) =>
    kind === 'producer'
      ? `${name} (프로듀서)`
      : kind === 'consumer'
        ? `${name} (컨슈머)`
        : kind === 'app-producer'
          ? `${name}의 프로듀서 (컨슈머 애플리케이션 안)`
          : kind === 'streams'
            ? `${name} (Kafka Streams)`
            : kind === 'cluster'
              ? '클러스터 (브로커와 코디네이터)'
              : `토픽 ${name}`,
  key: '키',
  value: '값',
  kafkaDefault: '기본값',
  about: '설명',
  setHere: '이 시나리오에서 설정함',
  isDefault: '기본값',
  notApplied: '변경됨, 적용 안 됨',
  inEffect: (v) => `실제 적용: ${v}`,
  simulation: (text) => `시뮬레이터: ${text}.`,
  reset: '기본값 사용',
  resetLabel: (key) => `${josa(key, '을/를')} 기본값으로`,
  invalid: '이 조합으로는 실행할 수 없어 아무것도 바꾸지 않았습니다. 고치거나 변경을 취소하세요:',
  otherErrors: '이 변경 때문에 함께 깨지는 곳:',
  discard: '변경 취소',
  applied: (step) => `적용했습니다. 새 설정으로 실행을 다시 계산했고, 지금 단계 ${step}에 있습니다.`,
  appliedAtEnd: (step) =>
    `적용했습니다. 새 설정으로 실행을 다시 계산했습니다. 실행이 더 일찍 끝나서 지금 마지막 단계인 단계 ${step}에 있습니다.`,
  messagesInEnglish:
    '오류는 한국어로 설명하고, Kafka가 로그에 남기는 원문을 영어 그대로 덧붙입니다. INFO/WARN 줄은 Kafka가 내는 그대로 영어로 보여 줍니다.',
  filter: '키 찾기',
  noMatch: '이 섹션에 맞는 키가 없습니다.',
  open: '설정',
  configureClient: (name) => `${name} 설정`,
};

export const CONFIG_STRINGS: Readonly<Record<Language, ConfigStrings>> = { en, ko };

export function useConfigStrings(): ConfigStrings {
  return CONFIG_STRINGS[useSim((s) => s.language)];
}
