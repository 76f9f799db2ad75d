/**
 * The variables of one evaluation, in slots fixed when the model compiles: inputs first, then
 * decision results. Compiled cells read a slot by index (an object with dynamic keys built per
 * evaluation was the largest cost of the hot path).
 */
export type Slots = unknown[];

/** The variables one decision can see (its information requirements), by name, with their slots. */
export type Visible = ReadonlyMap<string, number>;
