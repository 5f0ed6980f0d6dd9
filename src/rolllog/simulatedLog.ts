import type { ParsedLog } from './types.js';

/**
 * Whether a file's rolls are simulated: its export manifest says its session was, or every row is marked simulated
 * (an export's rows that travelled without their manifest). analyze, pool and import decide it this one way.
 */
export function isSimulatedLog(log: Pick<ParsedLog, 'rows' | 'simulatedRows'>, manifestSimulated: boolean | undefined): boolean {
  return manifestSimulated === true || (log.rows > 0 && log.simulatedRows === log.rows);
}
