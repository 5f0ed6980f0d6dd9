/**
 * The wall time a test gives the emulated board for something it expects to happen: the nominal time, ten times
 * over. The emulator is paced to wall time but falls behind when the host is overloaded, and every duration a
 * test checks is read from the emulator's own clock, so a wall-time bound only has to catch a hang. A wait that
 * is expected to run out (a check that something does not happen) keeps its nominal time instead.
 */
export const patience = (nominalMs: number): number => nominalMs * 10;
