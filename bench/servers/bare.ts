// The baseline of the HTTP benchmarks: one JSON route on the same Express stack (kit app:
// correlation id, request log, JSON parsing, error middleware) and nothing else.
import { z } from 'zod';
import { commonSettings, createServiceApp, healthRoute, route, runService } from '../../services/kit/index.js';

await runService({
  service: 'bare',
  defaultPort: 3999,
  configSchema: z.object(commonSettings),
  createApp: (_config, logger) =>
    createServiceApp({
      service: 'bare',
      logger,
      routes: [
        healthRoute('bare'),
        route({
          method: 'post',
          path: '/bare',
          summary: 'Baseline JSON route.',
          responses: { 200: { description: 'ok' } },
          handle: () => ({ status: 200, body: { ok: true } }),
        }),
      ],
    }),
});
