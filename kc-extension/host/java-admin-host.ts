import type { AdminReply, AdminRequest } from './admin-host.js';

/** The raw Java object for one svc-admin request (spi-wrapper AdminHostFacade). */
export interface JavaAdminHost {
  method(): string;
  path(): string;
  body(): string | null;
  header(name: string): string | null;
}

export function adaptAdminRequest(raw: JavaAdminHost): AdminRequest {
  return {
    method: raw.method(),
    path: raw.path(),
    body: raw.body() ?? undefined,
    header: (name) => raw.header(name) ?? undefined,
  };
}

export const replyToJava = (reply: AdminReply): string => JSON.stringify(reply);
