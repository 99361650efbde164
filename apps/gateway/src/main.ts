import { createLogger, onShutdown } from '@academy/kit';
import { readConfig } from './config.ts';
import { startGateway } from './gateway.ts';

const config = readConfig();
const gateway = await startGateway(config);
onShutdown(createLogger('gateway', config.LOG_LEVEL), gateway.stop);
