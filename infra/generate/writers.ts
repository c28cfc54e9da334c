import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';

/** A file `npm run generate` writes, with its content now. */
export interface GeneratedFile {
  path: URL;
  content: string;
}

/** One step of `npm run generate`: the files it generates, built when it runs (its modules imported then). */
export interface Writer {
  name: string;
  files: () => GeneratedFile[] | Promise<GeneratedFile[]>;
}

export interface WriterFailure {
  writer: string;
  error: unknown;
}

const current = (path: URL) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
};

/**
 * Runs every writer and writes each of its files whose content changed. A writer that fails writes nothing, and the
 * others still run: one broken step (a route Zapier cannot describe) leaves every other generated file current, and
 * each failure is named at the end rather than the first one stopping the rest.
 */
export async function runWriters(writers: readonly Writer[], wrote: (path: URL) => void = () => {}): Promise<{ written: URL[]; failures: WriterFailure[] }> {
  const written: URL[] = [];
  const failures: WriterFailure[] = [];
  for (const writer of writers) {
    try {
      const files = await writer.files();
      for (const { path, content } of files) {
        if (current(path) === content) continue;
        mkdirSync(new URL('.', path), { recursive: true });
        writeFileSync(path, content);
        written.push(path);
        wrote(path);
      }
    } catch (error) {
      failures.push({ writer: writer.name, error });
    }
  }
  return { written, failures };
}

/** A failure as `npm run generate` reports it: the writer and the error's message (its stack when it has no message). */
export const failureText = ({ writer, error }: WriterFailure) => `${writer}: ${error instanceof Error ? error.message || error.stack : String(error)}`;
