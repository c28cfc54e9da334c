/**
 * A long text (a description in the OpenAPI document, a tool's instructions) written as a paragraph wrapped over
 * several lines of code, read as Markdown reads it: a line break and the indentation around it are one space, a
 * blank line starts a new paragraph, and the text's first and last line breaks are dropped. What is interpolated is
 * kept as it is.
 */
export function prose(strings: TemplateStringsArray, ...values: readonly (string | number)[]): string {
  const parts = strings.map((part) => part.replace(/[ \t]*\n(?:[ \t]*\n)*[ \t]*/g, (breaks) => (breaks.split('\n').length > 2 ? '\n\n' : ' ')));
  parts[0] = parts[0]!.trimStart();
  parts[parts.length - 1] = parts.at(-1)!.trimEnd();
  return parts.reduce((text, part, at) => `${text}${String(values[at - 1])}${part}`);
}
