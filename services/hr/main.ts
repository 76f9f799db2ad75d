import { runService } from '../kit/index.js';
import { createApp } from './app.js';
import { HrConfig } from './config.js';

await runService({ service: 'hr', defaultPort: 3001, configSchema: HrConfig, createApp: (config, logger) => createApp(config, logger) });
