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

// digits read in Sino-Korean: 영 일 이 삼 사 오 육 칠 팔 구; a number ending in 0 ends in 영, 십, 백,
// 천 or 만, a final consonant every time
const DIGIT_HAS_FINAL = [true, true, false, true, false, false, true, true, true, false];

/**
 * Names a Korean reader spells letter by letter (ID 아이디, HW 에이치더블유, ISR 아이에스알); a word
 * of capitals without a vowel is read so too (TXN, RPC).
 */
const SPELLED = new Set(['id', 'api', 'hw', 'lso', 'leo', 'isr', 'eos', 'http', 'sql', 'ok', 'ms', 'db', 'tcp', 'rpc', 'cdc', 'kip']);

type Ending = 'vowel' | 'consonant' | 'rieul';

/** How the last sound of a name is read: the name's last word, its last digit, or its last syllable. */
function ending(word: string): Ending {
  // a particle after a parenthesis follows the word before it: producer-1 (acks=1)은, commitSync()가
  const trim = (x: string): string => x.replace(/[\s\]"'”’.,:;!?]+$/, '');
  let w = trim(word);
  for (let bare = trim(w.replace(/\s*\([^()]*\)$/, '')); bare !== w && bare !== ''; bare = trim(w.replace(/\s*\([^()]*\)$/, ''))) w = bare;
  w = w.replace(/[)]+$/, '');
  const last = w[w.length - 1];
  if (last === undefined) return 'vowel';
  const code = last.charCodeAt(0);
  if (code >= 0xac00 && code <= 0xd7a3) {
    const final = (code - 0xac00) % 28;
    return final === 0 ? 'vowel' : final === 8 ? 'rieul' : 'consonant';
  }
  if (last >= '0' && last <= '9') {
    if (last === '1' || last === '7' || last === '8') return 'rieul';
    return DIGIT_HAS_FINAL[Number(last)] ? 'consonant' : 'vowel';
  }
  // the last word: REQUEST_TIMED_OUT → OUT, transactional.id → id, TxnOffsetCommit → Commit, HW → HW
  const tail = /[A-Za-z]+$/.exec(w)?.[0];
  if (tail === undefined) return 'vowel';
  const lastWord = /(?:[A-Z]+|[A-Z]?[a-z]+)$/.exec(tail)?.[0] ?? tail;
  if (lastWord.length === 1 || SPELLED.has(lastWord.toLowerCase()) || /^[B-DF-HJ-NP-TV-Z]+$/.test(lastWord)) {
    // letters: 엘 and 알 end in ㄹ, 엠 and 엔 in a consonant, the rest (에이, 비, 아이, 디, 엑스…) in a vowel
    const letter = lastWord[lastWord.length - 1]?.toUpperCase();
    return letter === 'L' || letter === 'R' ? 'rieul' : letter === 'M' || letter === 'N' ? 'consonant' : 'vowel';
  }
  const lower = lastWord.toLowerCase();
  // English words as Koreans say them: -l ends in ㄹ (셀, 레벨), -ng, -m, -n in a consonant (빌링,
  // 스트림, 파티션), and so does a silent e after m or n (타임, 라인)
  if (/l$/.test(lower)) return 'rieul';
  if (/ng$|[mn]$|[aeiou][mn]e$/.test(lower)) return 'consonant';
  // a short vowel before p, b, k, c, t is read with a final consonant: app 앱, topic 토픽, commit 커밋,
  // offset 오프셋; so are out (아웃, 타임아웃) and group (그룹)
  if (/(^|[^aeiou])[aeiou](pp|ck|[pbkc])$/.test(lower) || /(^|[^aeiou])[aeiou]t$/.test(lower)) return 'consonant';
  return /(out|oup)$/.test(lower) ? 'consonant' : 'vowel';
}

type Particle = '은/는' | '이/가' | '을/를' | '과/와' | '으로/로' | '이에요/예요' | '이다/다';

/** Attaches the right particle: josa('broker-0', '은/는') → 'broker-0은'. */
export function josa(word: string, particle: Particle): string {
  const [withFinal, withoutFinal] = particle.split('/') as [string, string];
  const end = ending(word);
  if (particle === '으로/로') return word + (end === 'consonant' ? withFinal : withoutFinal);
  return word + (end === 'vowel' ? withoutFinal : withFinal);
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
  if (language === 'en' && /^(the|a|an|no|nothing|every|each|after|before|fault|group|controller|transaction)\b/.test(s))
    s = s[0]?.toUpperCase() + s.slice(1);
  if (!/[.!?]$/.test(s)) s += '.';
  return s;
}
