/** What one line from the board decodes to. Decoding never throws: bad lines become `invalid`. */
export type BoardLine = OkReply | ErrReply | PushLine | InvalidLine;

/** `<seq> ok [data]`: the one terminal reply of a successful command. */
export interface OkReply {
  readonly kind: 'ok';
  readonly seq: number;
  /** key=value fields, e.g. { fw: '0.1.0', proto: '1' } */
  readonly fields: Readonly<Record<string, string>>;
  readonly raw: string;
}

/** `<seq> err <code> <name> [data]`: the one terminal reply of a failed command; seq is null for `-`. */
export interface ErrReply {
  readonly kind: 'err';
  readonly seq: number | null;
  readonly code: number;
  readonly name: string;
  readonly fields: Readonly<Record<string, string>>;
  readonly raw: string;
}

/** `! <event> [words and key=value fields]`: an asynchronous push (boot banner, fault, limit). */
export interface PushLine {
  readonly kind: 'push';
  readonly event: string;
  /** words after the event that are not key=value (e.g. `fault 20 jam` -> ['20', 'jam']) */
  readonly words: readonly string[];
  readonly fields: Readonly<Record<string, string>>;
  readonly raw: string;
}

/** Why a line could not be trusted. */
export type InvalidReason = 'bad_crc' | 'bad_syntax' | 'too_long' | 'bad_bytes';

/** A line that failed its CRC or grammar: noise on the wire, a reset mid-line, a wrong baud rate. */
export interface InvalidLine {
  readonly kind: 'invalid';
  readonly reason: InvalidReason;
  readonly raw: string;
}
