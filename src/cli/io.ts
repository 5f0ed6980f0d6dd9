/** The CLI's output streams and exit status, injected into every command so tests can read them. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** Exit status set by a command (non-zero for a failure that is not an exception, e.g. an UNFAIR verdict is not one). */
  setExitCode(code: number): void;
}

export function processIo(): CliIo & { exitCode: number } {
  const io = {
    exitCode: 0,
    out: (s: string) => void process.stdout.write(s),
    err: (s: string) => void process.stderr.write(s),
    setExitCode: (c: number) => {
      io.exitCode = c;
    },
  };
  return io;
}

/** Writes a long output given in parts, about 64 KiB at a time: one `out` per part would be a write per die, one string of it all may not fit. */
export function writeParts(io: CliIo, parts: Iterable<string>, separator = ''): void {
  let pending = '';
  let first = true;
  for (const part of parts) {
    pending += first ? part : separator + part;
    first = false;
    if (pending.length >= 65_536) {
      io.out(pending);
      pending = '';
    }
  }
  if (pending !== '') io.out(pending);
}
