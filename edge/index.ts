// The network edge as the services use it: controller profiles, the gateway registry, the crypto of
// controllers' arrivals and hand-offs, device references (edge/README.md).
export * from './controllers/index.js';
export { deviceRefFor, normalizeMac } from './device-ref.js';
export {
  arrivalNeedsOutsideAddress,
  fromGatewayOutside,
  gatewayForArrival,
  GatewaysFile,
  loadDefaultWifi,
  loadGatewayRegistry,
  normalUrl,
  venueOf,
  WifiIdentifiers,
  type Gateway,
  type GatewayMatch,
  type GatewayRegistry,
  type GatewaysFileEntry,
  type VenueWifi,
  type WifiIdentifiersInput,
} from './registry.js';
export { arrivalIntegrityHolds, chapAnswerFor } from './controller-crypto.js';
