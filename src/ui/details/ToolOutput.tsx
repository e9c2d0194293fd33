/**
 * A command-line tool's output as a terminal shows it: the command after a prompt, then what the tool
 * prints, in its own columns (tabs and padding kept), scrolled sideways when wider than the panel.
 */
export function ToolOutput({ command, text }: { readonly command: string; readonly text: string }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: the tool's wide columns scroll sideways in their box, which must be focusable to scroll by keyboard (axe: scrollable-region-focusable)
    <pre className="tool-output" translate="no" tabIndex={0}>
      <span className="muted">$ {command}</span>
      {'\n'}
      {text}
    </pre>
  );
}
