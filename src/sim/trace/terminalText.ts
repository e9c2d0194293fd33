/**
 * Text from a scenario on its way to a terminal. A shared scenario is untrusted: an ESC in a key,
 * a value, a header name or a title starts an escape sequence that can clear the screen, move the
 * cursor over earlier lines or retitle the window; U+009B is a one-character CSI (C1 control) that
 * some terminals honour; a newline forges an output line; bidirectional controls reorder what the
 * reader sees (the "Trojan Source" trick). Every such character is written as a visible escape
 * instead. Everything the CLI prints from scenario data goes through this one helper.
 */

/**
 * C0 controls (tab and newline included: inside a field they would forge layout), DEL, C1 controls,
 * the Arabic letter mark, left-to-right and right-to-left marks, the line and paragraph separators,
 * and the bidirectional embeddings, overrides and isolates.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this regex's job
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** The text with every control character written as \xHH (up to U+00FF) or \u{HHHH}. */
export function escapeForTerminal(text: string): string {
  return text.replace(UNSAFE, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`;
  });
}

/** UNSAFE without the C0 range: in JSON.stringify's output a raw newline is layout, never data. */
const UNSAFE_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * JSON text (from JSON.stringify) for a terminal. JSON.stringify already escapes C0 controls inside
 * strings and lone surrogates; the other characters can only stand inside strings in JSON text,
 * where \uHHHH means the same character: the document is unchanged for any JSON reader.
 */
export function escapeJsonForTerminal(json: string): string {
  return json.replace(UNSAFE_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** UNSAFE without tab and newline. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this regex's job
const UNSAFE_IN_LAYOUT = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * A Kafka tool's output (src/sim/tools) for a terminal: its tabs and newlines are its layout and stay;
 * every other control character is escaped as escapeForTerminal does. A tab or newline inside a name
 * (a transactional.id or group.id may hold one) shows as layout, as Kafka's own tool prints it — it
 * cannot start an escape sequence.
 */
export function escapeLayoutForTerminal(text: string): string {
  return text.replace(UNSAFE_IN_LAYOUT, (c) => escapeForTerminal(c));
}
