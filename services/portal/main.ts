import { runService } from '../kit/index.js';
import { createApp } from './app.js';
import { PortalConfig } from './config.js';

await runService({ service: 'portal', defaultPort: 3000, configSchema: PortalConfig, createApp: (config, logger) => createApp(config, logger) });
