export { crc16, crcField } from './crc16.js';
export { encodeCommand, type CommandVerb } from './encode.js';
export { decodeLine, MAX_BOARD_LINE } from './decode.js';
export { LineSplitter } from './lineSplitter.js';
export { nextSeq, isNewerSeq, MAX_SEQ } from './sequence.js';
export type { BoardLine, OkReply, ErrReply, PushLine, InvalidLine, InvalidReason } from './messages.js';
export { ErrorCode, ERROR_TABLE, errorByCode, type ErrorName } from './errorCodes.js';
export { PIN_MAP, PROTOCOL_VERSION, FIRMWARE_VERSION, BAUD, MAX_LINE_LENGTH, CURRENT_SENSE_MV_PER_AMP, type PinAssignment } from './pinMap.js';
