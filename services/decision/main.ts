import { runService } from '../kit/index.js';
import { createApp } from './app.js';
import { DecisionConfig } from './config.js';

await runService({ service: 'decision', defaultPort: 3005, configSchema: DecisionConfig, createApp: (config, logger) => createApp(config, logger) });
