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
