import { BadRequestError } from '../errors';

/** One part of a multipart/form-data body: a text field, or a file when it has a filename. */
export interface FormPart {
  name: string;
  value: string;
  /** Set on a file part (`filename=` in its Content-Disposition), even when empty: an unused file input. */
  filename?: string;
}

const malformed = (why: string) => new BadRequestError(`The multipart/form-data body is malformed: ${why}`, 'INVALID_MULTIPART');

/** RFC 2046's boundary: 1 to 70 of its characters, not ending in a space. */
const BOUNDARY = /^[0-9A-Za-z'()+_,\-./:=? ]{0,69}[0-9A-Za-z'()+_,\-./:=?]$/;

/**
 * The `name=value` parameters after a header's first `;`, a value bare or quoted. As browsers write multipart
 * headers (WHATWG HTML), a quoted value ends at the next `"`, with no backslash escapes; a `"`, CR or LF in a
 * field's name is sent as %22, %0D, %0A, and read back here.
 */
function parametersOf(header: string): Map<string, string> {
  const parameters = new Map<string, string>();
  for (const [, name, quoted, bare] of header.matchAll(/;\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*=\s*(?:"([^"]*)"|([^;\s]*))/g)) {
    const key = name!.toLowerCase();
    if (!parameters.has(key)) parameters.set(key, quoted ?? bare ?? '');
  }
  return parameters;
}

const unescapeName = (name: string) => name.replace(/%(0A|0D|22)/gi, (escape) => String.fromCharCode(parseInt(escape.slice(1), 16)));

/** The boundary of a `multipart/form-data; boundary=…` Content-Type, quoted or not (RFC 7578 §4.1). */
export function boundaryOf(contentType: string): string {
  const boundary = parametersOf(contentType).get('boundary');
  if (boundary === undefined) throw malformed('its Content-Type has no boundary');
  if (!BOUNDARY.test(boundary)) throw malformed('its boundary must be 1 to 70 characters of those RFC 2046 allows');
  return boundary;
}

/** A part's header lines (no folding, as RFC 7578 has it) → its form field. */
function partOf(headerLines: string, value: string): FormPart {
  const headers = new Map<string, string>();
  for (const line of headerLines ? headerLines.split('\r\n') : []) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw malformed('a part has a header line without a name');
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const disposition = headers.get('content-disposition');
  if (!disposition || disposition.split(';')[0]!.trim().toLowerCase() !== 'form-data') throw malformed('each part needs Content-Disposition: form-data');
  const parameters = parametersOf(disposition);
  const name = parameters.get('name');
  if (name === undefined) throw malformed('each part needs a name');
  const filename = parameters.get('filename');
  return { name: unescapeName(name), value, ...(filename === undefined ? {} : { filename }) };
}

/**
 * The parts of a multipart/form-data body (RFC 7578 on RFC 2046), in order: a preamble before the first delimiter
 * and an epilogue after the close delimiter are ignored, lines end in CRLF, a delimiter may be followed by
 * spaces or tabs (transport padding). The body's size is the caller's to limit, before this runs. Each value is
 * the part's text as the body was decoded (UTF-8, what a form in a UTF-8 page sends).
 */
export function parseMultipart(body: string, contentType: string): FormPart[] {
  const delimiter = `--${boundaryOf(contentType)}`;
  /**
   * The first delimiter line from `from`: `--boundary` opening the body or after a CRLF (which belongs to it, not
   * to the part before), then `--` (the close) or padding and CRLF. A line that only starts like one is content.
   */
  const delimiterFrom = (from: number): { contentEnd: number; close: boolean; after: number } => {
    for (let search = from; ; ) {
      const crlf = search === 0 && body.startsWith(delimiter) ? -2 : body.indexOf(`\r\n${delimiter}`, search);
      if (crlf === -1) throw malformed('it has no closing delimiter');
      const start = crlf + 2;
      let cursor = start + delimiter.length;
      if (body.startsWith('--', cursor)) return { contentEnd: Math.max(crlf, 0), close: true, after: cursor + 2 };
      while (body[cursor] === ' ' || body[cursor] === '\t') cursor++;
      if (body.startsWith('\r\n', cursor)) return { contentEnd: Math.max(crlf, 0), close: false, after: cursor + 2 };
      search = start + 1;
    }
  };
  const parts: FormPart[] = [];
  for (let line = delimiterFrom(0); !line.close; ) {
    const following = delimiterFrom(line.after);
    const segment = body.slice(line.after, following.contentEnd);
    // Without header lines the empty line comes at once; otherwise the headers end at the first empty line.
    const split = segment.startsWith('\r\n') ? 0 : segment.indexOf('\r\n\r\n');
    if (split < 0) throw malformed('a part has no empty line after its headers');
    parts.push(split === 0 ? partOf('', segment.slice(2)) : partOf(segment.slice(0, split), segment.slice(split + 4)));
    line = following;
  }
  return parts;
}
