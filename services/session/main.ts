import { runService } from '../kit/index.js';
import { createApp } from './app.js';
import { SessionConfig } from './config.js';

await runService({ service: 'session', defaultPort: 3003, configSchema: SessionConfig, createApp: (config, logger) => createApp(config, logger) });
