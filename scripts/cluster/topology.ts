// The production topology on one machine (docs/operate/cluster.md): ports chosen so that
// nothing collides with `make up` / `make test` (3000-3006, 8080, 9000, 1812/1813) or the
// benchmarks (31xx, 39xx, 81xx).
export const SERVICE_NAMES = ['hr', 'decision', 'loyalty', 'session', 'gateway', 'entitlement', 'portal'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

export interface ClusterPorts {
  /** nginx, TLS: the portals and Keycloak's browser and token endpoints. */
  https: number;
  /** Keycloak nodes: http (behind nginx), management (health, metrics), JGroups transport. */
  keycloak: { http: number; management: number; jgroups: number }[];
  /** Each service's two instances. */
  services: Record<ServiceName, [number, number]>;
  /** nginx, plain http on 127.0.0.1: one balanced address per internal upstream. */
  balanced: Record<Exclude<ServiceName, 'portal'> | 'keycloak', number>;
  /** The embedded PostgreSQL server (when no DATABASE_URL is given). */
  postgres: number;
  /** Prometheus, on 127.0.0.1. */
  prometheus: number;
}

export const DEFAULT_PORTS: ClusterPorts = {
  https: 8443,
  keycloak: [
    { http: 18080, management: 19000, jgroups: 7800 },
    { http: 18081, management: 19001, jgroups: 7801 },
  ],
  services: {
    portal: [13000, 13010],
    hr: [13001, 13011],
    entitlement: [13002, 13012],
    session: [13003, 13013],
    gateway: [13004, 13014],
    decision: [13005, 13015],
    loyalty: [13006, 13016],
  },
  balanced: { hr: 13021, entitlement: 13022, session: 13023, gateway: 13024, decision: 13025, loyalty: 13026, keycloak: 13080 },
  postgres: 15432,
  prometheus: 19090,
};

/** The browser-facing origin: nginx with the generated certificate. */
export const publicUrl = (ports: ClusterPorts) => `https://localhost:${ports.https}`;
/** Where the services reach an internal upstream (nginx balances it over both instances). */
export const balancedUrl = (ports: ClusterPorts, name: keyof ClusterPorts['balanced']) => `http://127.0.0.1:${ports.balanced[name]}`;

/** Every TCP port the cluster listens on (the embedded PostgreSQL's included). */
export function allPorts(ports: ClusterPorts): number[] {
  return [
    ports.https,
    ports.postgres,
    ports.prometheus,
    ...ports.keycloak.flatMap((node) => [node.http, node.management, node.jgroups]),
    ...Object.values(ports.services).flat(),
    ...Object.values(ports.balanced),
  ];
}
