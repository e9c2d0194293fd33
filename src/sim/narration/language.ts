/**
 * The two languages EOS Lab speaks, and the small grammar Korean sentences need: the particle after
 * a word depends on whether the word's last sound has a final consonant (받침). Kafka terms stay in
 * Latin script, so the rule is applied to how a Korean reader pronounces them.
 */
import { groupDigits } from '../text/groupDigits';

export type Language = 'en' | 'ko';

/** Picks the sentence for the language. */
export function say(language: Language, en: string, ko: string): string {
  return language === 'ko' ? ko : en;
}

// digits read in Sino-Korean: 영 일 이 삼 사 오 육 칠 팔 구
const DIGIT_HAS_FINAL = [true, true, false, true, false, false, true, true, true, false];

function hasFinalConsonant(word: string): boolean {
  const w = word.replace(/[\s)\]"'”’.,:;!?]+$/, '');
  const last = w[w.length - 1];
  if (last === undefined) return false;
  const code = last.charCodeAt(0);
  if (code >= 0xac00 && code <= 0xd7a3) return (code - 0xac00) % 28 !== 0;
  if (last >= '0' && last <= '9') return DIGIT_HAS_FINAL[Number(last)] as boolean;
  const lower = w.toLowerCase();
  // English words as Koreans say them: -ng, -m, -n, -l end in a final consonant (빌링, 스트림, 인, 셀)
  if (/ng$/.test(lower)) return true;
  if (/[lmn]$/.test(lower)) return true;
  // a short vowel before p, b, k, c, t is read with a final consonant: app 앱, topic 토픽, commit 커밋, set 셋
  return /(^|[^aeiou])[aeiou](pp|ck|[pbkc])$/.test(lower) || /(^|[^aeiou])[aeiou]t$/.test(lower);
}

function hasFinalRieul(word: string): boolean {
  const w = word.replace(/[\s)\]"'”’.,:;!?]+$/, '');
  const last = w[w.length - 1];
  if (last === undefined) return false;
  const code = last.charCodeAt(0);
  if (code >= 0xac00 && code <= 0xd7a3) return (code - 0xac00) % 28 === 8;
  if (last === '1' || last === '7' || last === '8') return true;
  return /l$/i.test(w);
}

type Particle = '은/는' | '이/가' | '을/를' | '과/와' | '으로/로' | '이에요/예요' | '이다/다';

/** Attaches the right particle: josa('broker-0', '은/는') → 'broker-0은'. */
export function josa(word: string, particle: Particle): string {
  const [withFinal, withoutFinal] = particle.split('/') as [string, string];
  if (particle === '으로/로') return word + (hasFinalConsonant(word) && !hasFinalRieul(word) ? withFinal : withoutFinal);
  return word + (hasFinalConsonant(word) ? withFinal : withoutFinal);
}

/** "twice", "3 times" / "두 번", "3번". */
export function times(language: Language, n: number): string {
  if (language === 'ko') return n === 1 ? '한 번' : n === 2 ? '두 번' : n === 3 ? '세 번' : `${n}번`;
  return n === 1 ? 'once' : n === 2 ? 'twice' : `${n} times`;
}

/**
 * "1 record" / "3 records" / "2,000 records" (English plural rules; Korean counts have no plural),
 * the count's thousands grouped as every count on screen (groupDigits).
 */
export function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${groupDigits(n)} ${n === 1 ? singular : plural}`;
}

/**
 * "each of 2,000 events processed once" / "the one event processed once", and in Korean "이벤트
 * 2,000개가 각각 한 번씩 처리됐습니다" / "이벤트 1개가 한 번 처리됐습니다". `en` and `ko` follow the
 * count, its thousands grouped (groupDigits).
 */
export function eachOnce(language: Language, n: number, en: string, ko: string): string {
  if (language === 'ko') return n === 1 ? `이벤트 1개가 한 번 ${ko}` : `이벤트 ${groupDigits(n)}개가 각각 한 번씩 ${ko}`;
  return n === 1 ? `the one event ${en}`.trimEnd() : `each of ${groupDigits(n)} events ${en}`.trimEnd();
}

/** "second", "3rd" / "두 번째". */
export function ordinal(language: Language, n: number): string {
  if (language === 'ko')
    return ['첫', '두', '세', '네', '다섯'][n - 1] !== undefined ? `${['첫', '두', '세', '네', '다섯'][n - 1]} 번째` : `${n}번째`;
  const words = ['first', 'second', 'third', 'fourth', 'fifth'];
  if (n >= 1 && n <= 5) return words[n - 1] as string;
  const s = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${n % 10 > 3 ? 'th' : s}`;
}

/** "100" or "100–101". */
export function range(a: number, b: number): string {
  return a === b ? String(a) : `${a}–${b}`;
}

/** Joins a list for a sentence: "a, b and c" / "a, b, c". */
export function list(language: Language, items: readonly string[], max = 4): string {
  const shown = items.slice(0, max);
  const more = items.length - shown.length;
  if (language === 'ko') return more > 0 ? `${shown.join(', ')} 외 ${more}개` : shown.join(', ');
  if (more > 0) return `${shown.join(', ')} and ${more} more`;
  if (shown.length <= 1) return shown.join('');
  return `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
}

/** Finishes a sentence: capitalised when it starts with an English word, one full stop. */
export function sentence(language: Language, text: string): string {
  let s = text.trim().replace(/\s+/g, ' ');
  if (language === 'en' && /^(the|a|an|no|nothing|every|each|after|before|fault)\b/.test(s)) s = s[0]?.toUpperCase() + s.slice(1);
  if (!/[.!?]$/.test(s)) s += '.';
  return s;
}
