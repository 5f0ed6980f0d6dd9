/**
 * Why a file named by the user could not be read, in words: Node's own text for a folder ("EISDIR: illegal operation
 * on a directory, read") says neither what was wrong nor what to give instead.
 */
const WHY: Readonly<Record<string, string>> = {
  ENOENT: 'the file does not exist',
  EISDIR: 'it is a folder, not a file',
  ENOTDIR: 'a part of the path is not a folder',
  EACCES: 'permission denied',
  EPERM: 'not permitted',
  ELOOP: 'the path has a loop of symbolic links',
  ENAMETOOLONG: 'the name is too long',
  EIO: 'the device failed to read it (EIO)',
};

/** One phrase for an error from reading a file (`missing`: the words for ENOENT); an unknown error keeps its own message. */
export function fileReadProblem(e: unknown, missing = 'the file does not exist'): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return missing;
  if (typeof code === 'string' && WHY[code] !== undefined) return WHY[code];
  return e instanceof Error ? e.message : String(e);
}
