/**
 * Text in an SVG document: markup escaped, so a key or title from a scenario can never become
 * markup, and the characters XML 1.0 forbids replaced by U+FFFD, so the file always parses.
 */

/**
 * Characters XML 1.0 does not allow anywhere in a document, not even as &#x1; references (its Char
 * production): C0 controls other than tab, line feed and carriage return, lone surrogates, U+FFFE and
 * U+FFFF. One of them in a key or a title makes every XML parser (and every browser) reject the file.
 */
const NOT_XML_CHAR =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding the characters XML forbids is this regex's job
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Text as XML character data or an attribute value: markup escaped, characters XML forbids replaced by U+FFFD. */
export function escapeXml(text: string): string {
  return text
    .replace(NOT_XML_CHAR, '\ufffd')
    .replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] as string);
}
