/**
 * A file-system error on a path the user named (an --out under a plain file,
 * a folder they may not write, a full disk): the CLI says it in one line with
 * the path, as for any other bad input, instead of a stack trace.
 */
import { FILE_ERROR_WORDS } from '../core/fileReadProblem.js';

const VERB: Readonly<Record<string, string>> = { open: 'open', mkdir: 'make the folder', write: 'write', rename: 'rename', unlink: 'remove', scandir: 'list the folder', stat: 'find' };

/** One line for a Node file-system error on a path, or undefined for anything else. */
export function fileSystemProblem(e: unknown): string | undefined {
  if (!(e instanceof Error)) return undefined;
  const { code, syscall, path } = e as Error & { code?: unknown; syscall?: unknown; path?: unknown };
  if (typeof code !== 'string' || typeof path !== 'string') return undefined;
  const why = FILE_ERROR_WORDS[code];
  if (why === undefined) return undefined;
  const verb = typeof syscall === 'string' ? (VERB[syscall] ?? syscall) : 'use';
  return `cannot ${verb} ${path}: ${why} (${code}); nothing more was written.`;
}
