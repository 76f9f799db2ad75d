// The cluster's portals serve a Wi-Fi profile: a person registered and signed in through nginx
// downloads the wpa_supplicant file, which must carry the CA the cluster made for its RADIUS (the
// one the FreeRADIUS beside the controllers uses). Run inside the failover test's cluster (one start).
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { Agent, fetch as undiciFetch } from 'undici';
import type { Cluster } from '../../scripts/cluster.js';

export interface ProfileResult {
  status: number;
  contentType: string;
  /** The file names the cluster RADIUS CA (the PEM's base64 body, as wpa_supplicant's blob holds it). */
  carriesClusterCa: boolean;
  serverName: string | undefined;
}

export async function profileThroughCluster(cluster: Cluster): Promise<ProfileResult> {
  const dispatcher = new Agent({ connect: { ca: cluster.ca } });
  const origin = cluster.publicUrl;
  try {
    const account = { email: `profile-${randomUUID().slice(0, 8)}@cluster.example`, password: `profile-${randomUUID()}` };
    const post = (path: string, body: unknown) =>
      undiciFetch(`${origin}${path}`, { method: 'POST', dispatcher, headers: { 'content-type': 'application/json', origin }, body: JSON.stringify(body) });
    const registered = await post('/api/v1/auth/register', account);
    if (registered.status !== 200) throw new Error(`register: ${registered.status} ${await registered.text()}`);
    await registered.arrayBuffer();
    const login = await post('/api/v1/auth/login', { username: account.email, password: account.password });
    const cookie = login.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ');
    await login.arrayBuffer();
    if (login.status !== 200) throw new Error(`login: ${login.status}`);
    const profile = await undiciFetch(`${origin}/api/v1/me/devices/profile?kind=linux`, { dispatcher, headers: { cookie } });
    const text = await profile.text();
    const caBody = readFileSync(cluster.radius.caFile, 'utf8')
      .replace(/-----[^-]+-----/g, '')
      .replace(/\s+/g, '');
    return {
      status: profile.status,
      contentType: profile.headers.get('content-type') ?? '',
      carriesClusterCa: caBody.length > 0 && text.replace(/\s+/g, '').includes(caBody),
      serverName: /domain_suffix_match="([^"]+)"|domain_match="([^"]+)"/
        .exec(text)
        ?.slice(1)
        .find((v) => v !== undefined),
    };
  } finally {
    await dispatcher.close();
  }
}
