import { runService } from '../kit/index.js';
import { createApp } from './app.js';
import { LoyaltyConfig } from './config.js';

await runService({ service: 'loyalty', defaultPort: 3006, configSchema: LoyaltyConfig, createApp: (config, logger) => createApp(config, logger) });
