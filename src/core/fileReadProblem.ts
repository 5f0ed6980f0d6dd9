/**
 * Node's file-system error codes in words, for a path the user named: Node's own text for a folder ("EISDIR: illegal
 * operation on a directory, read") says neither what was wrong nor what to give instead. One table for the readers'
 * phrase (`fileReadProblem`) and the CLI's one-line account of any file-system error (cli/fileSystemError.ts).
 */
export const FILE_ERROR_WORDS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or folder',
  EISDIR: 'it is a folder, not a file',
  ENOTDIR: 'a part of the path is not a folder',
  EACCES: 'permission denied',
  EPERM: 'not permitted',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is spent',
  EEXIST: 'something is already there',
  ELOOP: 'the path has a loop of symbolic links',
  ENAMETOOLONG: 'the name is too long',
  EIO: 'the device failed (an input/output error)',
};

/** One phrase for an error from reading a file (`missing`: the words for ENOENT); an unknown error keeps its own message. */
export function fileReadProblem(e: unknown, missing = 'the file does not exist'): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return missing;
  if (typeof code === 'string' && FILE_ERROR_WORDS[code] !== undefined) return FILE_ERROR_WORDS[code];
  return e instanceof Error ? e.message : String(e);
}
