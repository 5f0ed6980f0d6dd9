/**
 * A report folder says whose report it holds. `report 1 --out DIR` of another store's session 1 wrote its report.html
 * over the first one's and left both sessions' charts side by side. Now DIR keeps `report-of.json` (the store and the
 * session); another session's report is refused there unless --force, and a report written again replaces its own
 * charts, so no chart of an earlier report is left beside the new one.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../core/errors.js';
import { isFleetUrl, redactUrl } from '../fleet/connect.js';
import { rollStorePath } from './dbOption.js';
import { realTarget } from './exportTarget.js';

export const REPORT_OF_FILE = 'report-of.json';

/** Whose report a folder holds: the store (a file's real path, or a fleet URL without its password) and the session. */
export interface ReportOf {
  readonly store: string;
  readonly session: string;
  readonly charts: readonly string[];
}

/** The store as a report folder names it. */
export function storeNamed(db: string | undefined): string {
  if (isFleetUrl(db)) return redactUrl(db as string);
  return realTarget(rollStorePath(db));
}

function readReportOf(dir: string): ReportOf | undefined {
  try {
    const value = JSON.parse(readFileSync(join(dir, REPORT_OF_FILE), 'utf8')) as Partial<ReportOf>;
    if (typeof value.store !== 'string' || typeof value.session !== 'string') return undefined;
    return { store: value.store, session: value.session, charts: Array.isArray(value.charts) ? value.charts.filter((c): c is string => typeof c === 'string' && !c.includes('/')) : [] };
  } catch {
    return undefined;
  }
}

/**
 * Refuses a folder holding another session's report (or a report.html of unknown origin) unless `force`, and removes
 * the charts of the report it replaces. `reportFile`: the report's file name in the folder.
 */
export function prepareReportFolder(dir: string, now: Omit<ReportOf, 'charts'>, reportFile: string, force: boolean): void {
  const before = readReportOf(dir);
  const html = existsSync(join(dir, reportFile));
  const same = before !== undefined && before.store === now.store && before.session === now.session;
  if (!force && html && !same) {
    const whose = before === undefined ? 'a report.html not written by this dicerig (or from before reports said whose they are)' : `the report of ${before.session} of ${before.store}`;
    throw new InputError(`holds ${whose}; report does not write over another session's report: give another --out folder, or --force to replace it`, { file: dir });
  }
  for (const chart of before?.charts ?? []) rmSync(join(dir, chart), { force: true });
}

/** Records whose report the folder now holds, with its charts' file names. */
export function recordReportOf(dir: string, of: ReportOf): void {
  writeFileSync(join(dir, REPORT_OF_FILE), `${JSON.stringify(of, null, 2)}\n`);
}
