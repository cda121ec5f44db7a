// JSON text in plain printable ASCII: every character outside U+0020-U+007E written as a \uXXXX escape
// (a character beyond the BMP as its two surrogate escapes), so a file means the same to a reader that
// assumes another encoding or refuses raw control characters: Specmatic refuses a whole document holding a
// raw U+0080 ("special characters are not allowed"), which the custom-header value pattern contains.
// JSON.parse of the text gives back exactly the value (escapes are part of JSON).

/** `JSON.stringify(value, null, indent)` with every non-printable-ASCII character escaped. */
export function asciiJson(value: unknown, indent = 2): string {
  return JSON.stringify(value, null, indent).replace(/[^\n\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
