import { describe, expect, it } from 'vitest';
import { commandUrl, fleetFailure, redactUrl } from '../../../src/fleet/connect.js';
import { FleetUnreachableError } from '../../../src/fleet/errors.js';

const URL = 'postgres://dicerig:s3cret@fleet.lan:5433/dicerig';

describe('fleet failures and URLs as the user reads them', () => {
  it('says in words why the fleet store cannot be reached, with the code after them', () => {
    const starting = fleetFailure(Object.assign(new Error('the database system is starting up'), { code: '57P03' }), redactUrl(URL), URL, 'copying session 1');
    expect(starting).toBeInstanceOf(FleetUnreachableError);
    expect((starting as Error).message).toMatch(/^Cannot reach the fleet store postgres:\/\/dicerig:\*\*\*@fleet\.lan:5433\/dicerig while copying session 1 \(the database system is starting up, 57P03\): check that PostgreSQL is running and listening on fleet\.lan port 5433/);
    // A socket error's words already hold its code: not said twice.
    const refused = fleetFailure(Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5433'), { code: 'ECONNREFUSED' }), redactUrl(URL), URL, 'opening it');
    expect((refused as Error).message).toContain('(connect ECONNREFUSED 10.0.0.5:5433)');
  });

  it('gives a shown URL back without its password, for a command to paste, and says that it left one out', () => {
    expect(commandUrl(redactUrl(URL))).toEqual({ url: 'postgres://dicerig@fleet.lan:5433/dicerig', passwordLeftOut: true });
    expect(commandUrl(redactUrl('postgres:///dicerig?host=%2Fsock&password=pw&user=rig'))).toEqual({ url: 'postgres:///dicerig?host=%2Fsock&user=rig', passwordLeftOut: true });
    expect(commandUrl(redactUrl('postgres:///dicerig?password=pw'))).toEqual({ url: 'postgres:///dicerig', passwordLeftOut: true });
    expect(commandUrl('postgres://rig@fleet.lan/dicerig')).toEqual({ url: 'postgres://rig@fleet.lan/dicerig', passwordLeftOut: false });
  });
});
