// Issue 30: the gateway's held reads of the session change feed pass the cluster's nginx, whose
// default 60 s read timeout would cut every read that waits longer (a 504 each minute, and the
// idle platform woken for it). The session upstream's feed location must outwait the longest hold.
import test from 'ava';
import { nginxConfig } from '../../scripts/cluster/nginx.js';
import { DEFAULT_PORTS } from '../../scripts/cluster/topology.js';
import { MAX_FEED_WAIT_SECONDS } from '../../services/session/change-feed.js';

test('the session upstream holds a feed read longer than the longest wait the session service allows', (t) => {
  const config = nginxConfig({ dir: '/tmp/nginx-config-test', ports: DEFAULT_PORTS, failTimeoutSeconds: 5 });
  const server = config.split(/\n {2}server \{/).find((block) => block.includes(`listen 127.0.0.1:${DEFAULT_PORTS.balanced.session};`));
  t.truthy(server, 'the session service has a balanced address');
  const feed = /location = \/api\/v1\/sessions\/changes \{([^}]*)\}/.exec(server ?? '');
  t.truthy(feed, 'the feed has a location of its own');
  const timeout = Number(/proxy_read_timeout (\d+)s;/.exec(feed?.[1] ?? '')?.[1] ?? 60);
  t.true(timeout > MAX_FEED_WAIT_SECONDS, `proxy_read_timeout ${timeout}s must exceed the ${MAX_FEED_WAIT_SECONDS} s hold`);
  t.regex(feed?.[1] ?? '', /proxy_pass http:\/\/session;/);
});
