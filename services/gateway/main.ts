import { runService } from '../kit/index.js';
import { createApp } from './app.js';
import { GatewayConfig } from './config.js';

await runService({ service: 'gateway', defaultPort: 3004, configSchema: GatewayConfig, createApp: (config, logger) => createApp(config, logger) });
