/**
 * Short names of the store files fleet sessions came from, for listings: one
 * rig host may sync several store files (`sync --db` of each), whose sessions
 * then share HOST:ID. Each file is named by the fewest trailing parts of its
 * path that tell it from the host's other files: usually its file name alone.
 */
export function storeFileLabels(sessions: readonly { readonly originHost: string; readonly originDb: string }[]): (s: { readonly originHost: string; readonly originDb: string }) => string {
  const byHost = new Map<string, Set<string>>();
  for (const s of sessions) byHost.set(s.originHost, (byHost.get(s.originHost) ?? new Set()).add(s.originDb));
  const labels = new Map<string, string>();
  for (const [host, files] of byHost) {
    const parts = [...files].map((f) => ({ file: f, parts: f.split('/').filter((p) => p !== '') }));
    for (const { file, parts: mine } of parts) {
      let label = file;
      for (let k = 1; k <= mine.length; k++) {
        const tail = mine.slice(-k).join('/');
        if (parts.every((o) => o.file === file || o.parts.slice(-k).join('/') !== tail)) {
          label = k === mine.length ? file : tail;
          break;
        }
      }
      labels.set(`${host}\u0000${file}`, label);
    }
  }
  return (s) => labels.get(`${s.originHost}\u0000${s.originDb}`) ?? s.originDb;
}
