// The table is the contract's (contract/qos.ts): the RADIUS side and openNDS read the same one.
export { DEFAULT_QOS_TABLE, limitsFor, QosTable, type Limits } from '../../contract/qos.js';
