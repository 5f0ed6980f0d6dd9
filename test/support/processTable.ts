/**
 * Every process's parent and command line, from Linux's /proc: how the browser tests find the Chromium a launch
 * started (a child of this process) and check what it was given.
 */
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcessEntry {
  readonly ppid: number;
  readonly args: string[];
}

export function processTable(): Map<number, ProcessEntry> {
  const processes = new Map<number, ProcessEntry>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The parent is the second field after the command name, which may itself hold spaces and parentheses.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      processes.set(Number(entry), { ppid: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]), args: readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0') });
    } catch {
      // A process that ended meanwhile.
    }
  }
  return processes;
}
