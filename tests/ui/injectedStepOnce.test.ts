/**
 * The injection's confirmation names its step once, not again at the end of the note ("Injected at
 * step 13: drop … (injected at step 13)"), in English and Korean.
 */
import { describe, expect, it } from 'vitest';
import { INJECT_STRINGS, withoutInjectedStep } from '../../src/ui/inject/strings';

describe('wording', () => {
  it('the injection confirmation names its step once', () => {
    for (const language of ['en', 'ko'] as const) {
      const t = INJECT_STRINGS[language];
      const note =
        language === 'en' ? 'drop the 1st ProduceResponse (injected at step 13)' : '첫 번째 ProduceResponse 버림 (단계 13에서 주입)';
      const said = t.injectedAt(withoutInjectedStep(note), 13);
      expect(said.match(/13/g)?.length, said).toBe(1);
      expect(said).toContain(language === 'en' ? 'drop the 1st ProduceResponse' : '첫 번째 ProduceResponse 버림');
    }
    // a note someone wrote that merely ends in parentheses keeps them
    expect(withoutInjectedStep('drop it (twice)')).toBe('drop it (twice)');
  });
});
