import type { RigIdentity } from '../rig/driver.js';
import { MAX_LABEL_LENGTH } from '../rolllog/dieLogs.js';
import { quoteValue } from '../rolllog/quoteValue.js';
import { StoreError } from './errors.js';
import type { DieInput, DieRecord, RigRecord } from './records.js';
import type { Database, Statement } from './sqlite.js';

const RIG_COLUMNS = `id, rig_key AS rigId, driver, firmware, protocol, config_hash AS configHash, calibration_hash AS calibrationHash, tumbler, port`;
const DIE_COLUMNS = 'id, label, type_id AS typeId, set_name AS "set", notes';

/**
 * The rigs and dice a store knows. A rig row stands for one identity and
 * calibration (a firmware or calibration change makes a new row, so old
 * sessions keep the rig they ran on); a die row for one physical die, named by
 * its label.
 */
export class RigDiceRows {
  private readonly dieById: Statement<DieRecord>;

  constructor(
    private readonly db: Database,
    private readonly path: string,
    /** Runs `fn` in the store's write transaction. */
    private readonly atomically: <T>(fn: () => T) => T,
  ) {
    this.dieById = db.prepare(`SELECT ${DIE_COLUMNS} FROM dice WHERE id = ?`);
  }

  registerRig(identity: RigIdentity, calibrationHash: string): RigRecord {
    const key = [identity.rigId, identity.driver, identity.firmware, identity.protocol, identity.configHash, calibrationHash, identity.tumbler];
    const find = (): RigRecord | undefined =>
      this.db
        .prepare<RigRecord>(
          `SELECT ${RIG_COLUMNS} FROM rigs WHERE rig_key = ? AND driver = ? AND firmware = ? AND protocol = ? AND config_hash = ? AND calibration_hash = ? AND tumbler = ?`,
        )
        .get(...key);
    return this.atomically(() => {
      const seen = find();
      if (seen !== undefined) return seen;
      this.db
        .prepare('INSERT INTO rigs (rig_key, driver, firmware, protocol, config_hash, calibration_hash, tumbler, port) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
        .run(...key, identity.port ?? null);
      return find() as RigRecord;
    });
  }

  getRig(id: number): RigRecord | undefined {
    return this.db.prepare<RigRecord>(`SELECT ${RIG_COLUMNS} FROM rigs WHERE id = ?`).get(id);
  }

  /** A label already stored with another type is refused: a label names one physical die. */
  registerDie(input: DieInput): DieRecord {
    const label = input.label.trim();
    if (label === '') throw new StoreError('A die needs a label or serial.', { db: this.path });
    if (label.length > MAX_LABEL_LENGTH) throw new StoreError(`The die label ${quoteValue(label)} is too long: a label is at most ${MAX_LABEL_LENGTH} characters.`, { db: this.path });
    if (/[\r\n]/.test(label)) throw new StoreError(`A die label must be one line ("${label.replace(/[\r\n]+/g, ' ')}").`, { db: this.path });
    return this.atomically(() => {
      const seen = this.findDie(label);
      if (seen !== undefined) {
        if (seen.typeId !== input.typeId) {
          throw new StoreError(`Die "${label}" is already in the store as type "${seen.typeId}", not "${input.typeId}"; give this die another label.`, {
            db: this.path,
            die: label,
          });
        }
        return seen;
      }
      const info = this.db.prepare('INSERT INTO dice (label, type_id, set_name, notes) VALUES (?, ?, ?, ?)').run(label, input.typeId, input.set ?? null, input.notes ?? null);
      return this.getDie(Number(info.lastInsertRowid)) as DieRecord;
    });
  }

  getDie(id: number): DieRecord | undefined {
    return this.dieById.get(id);
  }

  findDie(label: string): DieRecord | undefined {
    return this.db.prepare<DieRecord>(`SELECT ${DIE_COLUMNS} FROM dice WHERE label = ?`).get(label);
  }

  dice(): DieRecord[] {
    return this.db.prepare<DieRecord>(`SELECT ${DIE_COLUMNS} FROM dice ORDER BY id`).all();
  }
}
