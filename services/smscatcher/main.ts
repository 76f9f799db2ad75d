import { runService } from '../kit/index.js';
import { createApp } from './app.js';
import { SmsCatcherConfig } from './config.js';

await runService({ service: 'smscatcher', defaultPort: 8026, configSchema: SmsCatcherConfig, createApp });
