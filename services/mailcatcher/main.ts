import { runService } from '../kit/index.js';
import { createApp } from './app.js';
import { MailCatcherConfig } from './config.js';

await runService({ service: 'mailcatcher', defaultPort: 8025, configSchema: MailCatcherConfig, createApp });
