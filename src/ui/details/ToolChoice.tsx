/**
 * A choice among a tool's options in a details section — its views, scopes, replicas or reports: a
 * row of toggle buttons, the chosen one pressed, named by a data attribute tests and styles read. A
 * label that is the tool's own option (`--all-groups`) is not translated; the page's own words are.
 */
export interface ToolOption<T> {
  readonly id: T;
  readonly label: string;
  /** The page's own words (translated with the page), not one of the tool's options. */
  readonly words?: boolean;
  /** The button's data attribute value (default: the id). */
  readonly data?: string;
}

export function ToolChoice<T>({
  testId,
  label,
  attribute,
  options,
  chosen,
  onChoose,
}: {
  readonly testId: string;
  readonly label: string;
  /** The data attribute each button carries its option in (`scope` → `data-scope`). */
  readonly attribute: string;
  readonly options: readonly ToolOption<T>[];
  readonly chosen: T;
  readonly onChoose: (id: T) => void;
}) {
  return (
    <fieldset className="segmented" data-testid={testId} aria-label={label}>
      <legend className="visually-hidden">{label}</legend>
      {options.map((o) => {
        const value = o.data ?? String(o.id);
        return (
          <button
            key={value}
            type="button"
            {...{ [`data-${attribute}`]: value }}
            translate={o.words ? undefined : 'no'}
            aria-pressed={chosen === o.id}
            onClick={() => onChoose(o.id)}
          >
            {o.label}
          </button>
        );
      })}
    </fieldset>
  );
}
