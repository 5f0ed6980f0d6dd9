/**
 * A campaign's name: every rig host types it (`campaign run NAME`), it heads the status, the report and the
 * dashboard, and it names each batch's session. So it must be there to read and type: not empty or blank, without
 * control characters (a line break or a terminal code would split or garble those lines), without blanks around it
 * (a session's config keeps it trimmed, and would name another campaign), and short enough for a session's name.
 */
import { InputError } from '../../core/errors.js';

/** Room for `campaign NAME rig R batch B` within a session name's 200 characters. */
export const MAX_CAMPAIGN_NAME = 100;

/** Refuses a name no one could read or type again, saying why; returns it as it is. */
export function checkCampaignName(name: string): string {
  const shown = JSON.stringify(name);
  if (name.trim() === '') throw new InputError(`a campaign needs a name to be run and reported by; ${name === '' ? 'the name given is empty' : `${shown} is only blanks`}`);
  // eslint-disable-next-line no-control-regex -- control characters are what is looked for
  if (/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(name)) {
    throw new InputError(`the campaign name ${shown} holds a control character (a line break, tab or terminal code), which would garble every line that shows it; choose a name of letters, digits, spaces and punctuation`);
  }
  if (name !== name.trim()) throw new InputError(`the campaign name ${shown} starts or ends with a blank; give it without (${JSON.stringify(name.trim())})`);
  if (name.length > MAX_CAMPAIGN_NAME) throw new InputError(`the campaign name is ${name.length} characters long; a name is at most ${MAX_CAMPAIGN_NAME}`);
  return name;
}
