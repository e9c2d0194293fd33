/**
 * What B changes: every setting of A an A/B comparison may change, with a select for B's value. For a
 * gallery pair (B a scenario of its own) the settings in which the two differ, read-only.
 */
import { type Scenario, type SettingChange, type SettingValue, settingsDiff, settingsOf } from '../../sim';
import type { CompareStrings } from './compareStrings';

const show = (v: SettingValue) => String(v);

export function CompareSettings({
  a,
  b,
  changes,
  onChange,
  t,
}: {
  readonly a: Scenario;
  readonly b: Scenario;
  readonly changes: readonly SettingChange[] | null;
  readonly onChange: (changes: SettingChange[]) => void;
  readonly t: CompareStrings;
}) {
  if (changes === null) {
    const diff = settingsDiff(a, b);
    const all = new Map(settingsOf(a).map((s) => [`${s.target}\u0000${s.setting}`, s.current]));
    return (
      <section className="compare-settings" data-testid="compare-settings">
        <p>{t.pairNote}</p>
        <ul>
          {diff.map((d) => (
            <li key={`${d.target}:${d.setting}`} className="differs">
              <code>{d.target}</code> <code>{d.setting}</code>: {show(all.get(`${d.target}\u0000${d.setting}`) ?? '')} → {show(d.value)}
            </li>
          ))}
        </ul>
        {a.seed !== b.seed && <p className="muted">{t.seedsDiffer(a.seed, b.seed)}</p>}
      </section>
    );
  }
  const settings = settingsOf(a);
  const bValue = (target: string, setting: string, current: SettingValue) =>
    changes.find((c) => c.target === target && c.setting === setting)?.value ?? current;
  const set = (target: string, setting: SettingChange['setting'], current: SettingValue, raw: string, options: readonly SettingValue[]) => {
    const value = options.find((o) => String(o) === raw) ?? raw;
    const rest = changes.filter((c) => !(c.target === target && c.setting === setting));
    onChange(value === current ? rest : [...rest, { target, setting, value }]);
  };
  return (
    <section className="compare-settings" data-testid="compare-settings">
      <h3>{t.settingsTitle}</h3>
      <p className="muted">{t.settingsHelp}</p>
      {changes.length === 0 && <p>{t.sameSettings}</p>}
      <table>
        <thead>
          <tr>
            <th scope="col">{t.target}</th>
            <th scope="col">{t.setting}</th>
            <th scope="col">{t.valueA}</th>
            <th scope="col">{t.valueB}</th>
          </tr>
        </thead>
        <tbody>
          {settings.map((s) => {
            const v = bValue(s.target, s.setting, s.current);
            const id = `${s.target}:${s.setting}`;
            return (
              <tr key={id} className={v !== s.current ? 'differs' : undefined}>
                <td>
                  <code>{s.target}</code>
                </td>
                <td>
                  <code>{s.setting}</code>
                </td>
                <td>{show(s.current)}</td>
                <td>
                  <select
                    aria-label={`B: ${s.target} ${s.setting}`}
                    data-testid={`setting-${id}`}
                    value={show(v)}
                    onChange={(e) => set(s.target, s.setting, s.current, e.currentTarget.value, s.options)}
                  >
                    {s.options.map((o) => (
                      <option key={show(o)} value={show(o)}>
                        {show(o)}
                      </option>
                    ))}
                  </select>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
