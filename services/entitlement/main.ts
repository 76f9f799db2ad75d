import { runService } from '../kit/index.js';
import { createApp } from './app.js';
import { EntitlementConfig } from './config.js';

await runService({ service: 'entitlement', defaultPort: 3002, configSchema: EntitlementConfig, createApp: (config, logger) => createApp(config, logger) });
