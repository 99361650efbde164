import { createLogger, onShutdown, runMain } from '@academy/kit';
import { readConfig } from './config.ts';
import { startGateway } from './gateway.ts';

await runMain(async () => {
  const config = readConfig();
  const gateway = await startGateway(config);
  onShutdown(createLogger('gateway', config.LOG_LEVEL), gateway.stop);
});
