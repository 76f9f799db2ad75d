/** One request to /realms/{realm}/svc-admin, as the module's router sees it. */
export interface AdminRequest {
  method: string;
  /** Path below the module base, starting with '/'. */
  path: string;
  body: string | undefined;
  header(name: string): string | undefined;
}

export interface AdminReply {
  status: number;
  contentType: string;
  body: string;
  headers?: Record<string, string>;
}
