/**
 * How deeply a JSON body may nest objects and arrays, the body itself being level 1: far beyond any form, mail
 * parser or agent payload, and far below the depth at which code that recurses over a value (JSON.stringify, a
 * reviver, a validator) exhausts the stack and fails with a RangeError.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether JSON text nests objects and arrays deeper than `maxDepth`, read before parsing it: one pass over the text
 * that recurses over nothing, so a body of any size and depth costs its length and cannot overflow the stack.
 * Brackets inside strings do not count. Text that is not JSON gets an answer that means nothing; its parse fails.
 */
export function nestsDeeperThan(text: string, maxDepth = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash escapes the next character, a quote included
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}
