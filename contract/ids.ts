/** The uuid text form (any version), as a pattern fragment without anchors. */
export const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/** Spec 2.1 identifier shapes. */
export const ENTITLEMENT_ID_PATTERN = new RegExp(`^ent-${UUID}$`);
export const SESSION_ID_PATTERN = new RegExp(`^sess-${UUID}$`);
/** Spec 2.1: what a session (or entitlement) id path segment may hold before it is looked up. */
export const PATH_ID_PATTERN = /^[A-Za-z0-9-]{1,64}$/;

/** Spec 2.3 and 8. */
export const EMPLOYEE_ID_PATTERN = /^[A-Za-z0-9._-]{3,32}$/;
/** Spec 2.3 and 8: the citizen number (sensitive: never logged, stored or echoed). */
export const CITIZEN_ID_PATTERN = /^[0-9]{9,12}$/;
/** Spec 8. */
export const COMPANY_CODE_PATTERN = /^[A-Z0-9-]{2,24}$/;

export const entitlementId = (uuid: string): string => `ent-${uuid}`;
export const sessionId = (uuid: string): string => `sess-${uuid}`;

/**
 * A name an operator or a partner chooses (a venue group, a decision model, a webhook's company
 * key): letters, digits, `-` and `_`, at most 64, so that it is safe in a path, a file name and a
 * FreeRADIUS client name alike.
 */
export const NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
/** A gateway's NAS id (the FreeRADIUS client name; part of a deviceRef). */
export const NAS_ID_PATTERN = NAME_PATTERN;
