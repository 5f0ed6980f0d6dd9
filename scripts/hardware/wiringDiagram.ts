/**
 * The rig's wiring diagram as SVG, drawn from the pin map in firmware/protocol/protocol.json
 * (the table the firmware and the host drivers are generated from), so the drawing cannot
 * disagree with them. Each pin is one row: the Uno's pin on the left, the part it goes to on
 * the right, with the role the JSON gives it. Parts we know are drawn with their terminals; a
 * pin we do not know is still drawn, with its role, under "other".
 */
export const PROTOCOL_FILE = 'firmware/protocol/protocol.json';
export const WIRING_FILE = 'hardware/wiring.svg';

export interface PinEntry {
  readonly name: string;
  readonly pin: string;
  readonly arduino: number;
  readonly role: string;
}

export interface ProtocolTable {
  readonly pins: readonly PinEntry[];
  readonly currentSenseMillivoltsPerAmp: number;
  readonly firmwareVersion: string;
}

interface Part {
  readonly title: string;
  readonly note: string;
  /** The part's terminal this pin goes to. */
  readonly terminal: string;
}

function partOf(pin: PinEntry, table: ProtocolTable): Part {
  const stepper = (terminal: string): Part => ({
    title: 'Stepper driver (A4988 / DRV8825), stepper build only',
    note: 'VMOT from the 12 V supply; 100 µF across VMOT; GND to Uno GND',
    terminal,
  });
  const sw = (title: string): Part => ({ title, note: 'COM to GND, NO to the pin (internal pull-up: pressed = LOW)', terminal: 'NO' });
  switch (pin.name) {
    case 'servo':
      return { title: 'Servo (DS3218, 20 kg·cm)', note: '+ and − from the 5-6 V 3 A servo supply; supply − to Uno GND', terminal: 'signal' };
    case 'stepper_step':
      return stepper('STEP');
    case 'stepper_dir':
      return stepper('DIR');
    case 'stepper_enable':
      return stepper('ENABLE (active low)');
    case 'light':
      return { title: 'N-MOSFET (IRLZ44N) + 12 V LED strip', note: 'gate via 220 Ω, 10 kΩ gate-GND; strip + to +12 V, strip − to drain, source to GND', terminal: 'gate' };
    case 'limit_switch':
      return sw('Limit microswitch');
    case 'home_switch':
      return sw('Home microswitch');
    case 'status_led':
      return { title: "Uno's on-board LED (L)", note: 'nothing to wire', terminal: 'LED' };
    case 'motor_current':
      return {
        title: 'Current-sense amplifier (INA169, 0.1 Ω shunt)',
        note: `shunt in the motor supply's + lead; ${table.currentSenseMillivoltsPerAmp / 1000} V per A; VCC 5 V, GND`,
        terminal: 'OUT',
      };
    default:
      return { title: 'other', note: pin.role, terminal: pin.name };
  }
}

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function wiringSvg(table: ProtocolTable): string {
  const rowH = 52;
  const top = 90;
  const width = 1120;
  const unoX = 40;
  const unoW = 170;
  const partX = 560;
  const partW = 520;
  const rows = table.pins.map((pin, i) => ({ pin, part: partOf(pin, table), y: top + i * rowH + rowH / 2 }));
  const height = top + rows.length * rowH + 110;
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="13">`);
  out.push(`<rect width="${width}" height="${height}" fill="#ffffff"/>`);
  out.push(`<text x="${unoX}" y="34" font-size="20" font-weight="bold">dicerig reference rig: wiring</text>`);
  out.push(`<text x="${unoX}" y="58" fill="#555">Generated from ${esc(PROTOCOL_FILE)} (firmware ${esc(table.firmwareVersion)}): the pins the firmware and drivers use.</text>`);
  out.push(`<rect x="${unoX}" y="${top - 10}" width="${unoW}" height="${rows.length * rowH + 20}" rx="8" fill="#1b6f9e" stroke="#0d3e5a"/>`);
  out.push(`<text x="${unoX + 16}" y="${top + 14}" fill="#fff" font-size="16" font-weight="bold">Arduino Uno</text>`);

  // Consecutive rows going to the same part share one box.
  let start = 0;
  for (let i = 1; i <= rows.length; i++) {
    const first = rows[start];
    if (first === undefined) break;
    if (i < rows.length && rows[i]?.part.title === first.part.title && first.part.title !== 'other') continue;
    const last = rows[i - 1] ?? first;
    const y0 = first.y - rowH / 2 + 4;
    const h = last.y - first.y + rowH - 8;
    out.push(`<rect x="${partX}" y="${y0}" width="${partW}" height="${h}" rx="6" fill="#f4f1e8" stroke="#8a7f5c"/>`);
    out.push(`<text x="${partX + 10}" y="${y0 + 17}" font-weight="bold">${esc(first.part.title)}</text>`);
    out.push(`<text x="${partX + 10}" y="${y0 + h - 8}" fill="#555" font-size="11">${esc(first.part.note)}</text>`);
    start = i;
  }
  for (const { pin, part, y } of rows) {
    const x0 = unoX + unoW;
    out.push(`<g class="pin" data-pin="${esc(pin.pin)}" data-name="${esc(pin.name)}">`);
    out.push(`<text x="${x0 - 10}" y="${y + 5}" fill="#fff" text-anchor="end" font-weight="bold">${esc(pin.pin)}</text>`);
    out.push(`<circle cx="${x0}" cy="${y}" r="4" fill="#0d3e5a"/>`);
    out.push(`<line x1="${x0}" y1="${y}" x2="${partX}" y2="${y}" stroke="#c0392b" stroke-width="2"/>`);
    out.push(`<circle cx="${partX}" cy="${y}" r="4" fill="#8a7f5c"/>`);
    out.push(`<text x="${x0 + 12}" y="${y - 6}" font-weight="bold">${esc(pin.name)}</text>`);
    out.push(`<text x="${x0 + 12}" y="${y + 15}" fill="#555" font-size="11">${esc(pin.role)}</text>`);
    out.push(`<text x="${partX - 8}" y="${y - 6}" text-anchor="end" font-style="italic" fill="#8a7f5c">${esc(part.terminal)}</text>`);
    out.push('</g>');
  }
  const foot = top + rows.length * rowH + 40;
  out.push(`<text x="${unoX}" y="${foot}" font-weight="bold">Power and ground</text>`);
  out.push(`<text x="${unoX}" y="${foot + 22}">All grounds meet at the Uno's GND. The servo has its own 5-6 V 3 A supply (never the Uno's 5 V pin); the LED strip and a stepper driver take 12 V.</text>`);
  out.push(`<text x="${unoX}" y="${foot + 44}">Keep the motor and LED supply leads away from the USB cable: a servo stalling on a shared supply resets the Uno.</text>`);
  out.push('</svg>');
  return out.join('\n') + '\n';
}
